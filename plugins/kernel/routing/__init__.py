"""From the WebSocket to a handler: the event filter and arrival stamp
(:mod:`.events`), the router of commands and plain text (:mod:`.router`),
join requests and member notices (:mod:`.notices`)."""
