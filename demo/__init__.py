"""The rehearsal room: a fake QQ in the browser beside the real bot (make demo)."""
