// `Locked`, the package's one lock type, lives in the `Locking` module at the bottom of the
// graph, so that the modules NetworkClient does not reach (OAuth1, CommandLineSupport, ...) use
// it too. It stays part of NetworkClient's public API (request behaviors keep their state in
// it): re-exported, so that `import NetworkClient` still brings it, as before the move.
@_exported import Locking
