import Foundation
import TweetsCore

// tweets: the command line is parsed and run by TweetsCore; this file only connects it to the
// process's arguments, environment and standard streams.
let environment = ProcessInfo.processInfo.environment
let status = await TweetsCLI.run(Array(CommandLine.arguments.dropFirst()), environment: environment, terminal: .standard(environment: environment))
exit(status)
