try:
    from .server import main
except KeyboardInterrupt:  # Ctrl+C while starting: nothing runs yet
    raise SystemExit(130) from None

raise SystemExit(main())
