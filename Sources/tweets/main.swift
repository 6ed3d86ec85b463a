import CommandLineSupport
import Foundation
import TweetsCore
import XSandbox

// tweets: the command line is parsed and run by TweetsCore; this file only connects it to the
// process's arguments, environment and standard streams, and hands it the offline X API
// (XSandbox) for --sandbox and `tweets sandbox serve`.
let environment = ProcessInfo.processInfo.environment
let status = await TweetsCLI.run(
  Array(CommandLine.arguments.dropFirst()), environment: environment, terminal: .standard(environment: environment), sandbox: XSandbox.self)
// A reader of standard output that went away ends the process as SIGPIPE would.
CheckedOutput.exit(status)
