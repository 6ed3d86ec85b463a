import CommandLineSupport
import Foundation

/// `oauth1`: shows every stage of OAuth 1.0a signing for one request.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = await OAuth1Command.run(arguments)
// A reader of standard output that went away ends the process as SIGPIPE would.
CheckedOutput.exit(status)
