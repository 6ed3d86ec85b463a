import CommandLineSupport

/// The groups of the options several commands share (``GlobalOptions`` reads them), and so which
/// of them a command takes: each command declares its groups once (``TweetsCommand/shared``),
/// and its ``CommandSpec`` lists their options, so its help, its parser and the completion
/// scripts agree. An option of a group a command does not take is a usage error that names the
/// command and the commands that take it.
struct SharedOptions: OptionSet, Sendable {
  let rawValue: Int

  /// `--profile`, `--config-dir`, `--sandbox`, `--base-url`, `--timeout`, `--verbose`,
  /// `--no-wait`, `--max-wait`, `--max-cost`: where the credentials are and how requests are
  /// sent and paid for, which every command takes, so that an alias or a script may give them to
  /// any command.
  static let session = SharedOptions(rawValue: 1 << 0)
  /// `--consumer-key`, `--consumer-secret`: the app, for the commands that sign as a user.
  static let consumer = SharedOptions(rawValue: 1 << 1)
  /// `--api`: for the commands that have both a v2 and a v1.1 endpoint.
  static let api = SharedOptions(rawValue: 1 << 2)
  /// `--format`, `--json`: for the commands that print records.
  static let format = SharedOptions(rawValue: 1 << 3)
  /// `--limit`, `--all`: for the commands that page.
  static let paging = SharedOptions(rawValue: 1 << 4)
  /// `--since-id`, `--until-id`, `--start-time`, `--end-time`: for the endpoints X gives a window.
  static let window = SharedOptions(rawValue: 1 << 5)
  /// `--fields`, `--expansions`: for the commands that fetch tweets with v2.
  static let tweetFields = SharedOptions(rawValue: 1 << 6)
  /// `--output`, `--resume`: for the commands that page.
  static let output = SharedOptions(rawValue: 1 << 7)
  /// `--db`: for the commands that fetch tweets or users, stored in an SQLite archive.
  static let database = SharedOptions(rawValue: 1 << 8)

  /// Every group.
  static let all: SharedOptions = [.session, .consumer, .api, .format, .paging, .window, .tweetFields, .output, .database]
  /// What every command that signs requests as the user takes.
  static let signedIn: SharedOptions = [.session, .consumer]
  /// A stream of tweets from a v2 endpoint without a window, in pages.
  static let tweetPages: SharedOptions = [.signedIn, .format, .paging, .tweetFields, .output, .database]

  /// Every shared option with its group, in the order a command's help lists them.
  static let declarations: [(group: SharedOptions, option: any OptionDeclaration)] = [
    (.session, GlobalOptions.baseURLOption), (.api, GlobalOptions.apiOption), (.session, GlobalOptions.profileOption),
    (.session, GlobalOptions.configDirOption), (.format, GlobalOptions.formatOption), (.format, GlobalOptions.jsonOption),
    (.paging, GlobalOptions.limitOption), (.paging, GlobalOptions.allOption), (.window, GlobalOptions.sinceIDOption),
    (.window, GlobalOptions.untilIDOption), (.window, GlobalOptions.startTimeOption), (.window, GlobalOptions.endTimeOption),
    (.tweetFields, GlobalOptions.fieldsOption), (.tweetFields, GlobalOptions.expansionsOption), (.session, GlobalOptions.noWaitOption),
    (.session, GlobalOptions.maxWaitOption), (.session, GlobalOptions.timeoutOption), (.session, GlobalOptions.verboseOption),
    (.session, GlobalOptions.sandboxOption), (.session, GlobalOptions.maxCostOption), (.output, GlobalOptions.outputOption),
    (.database, GlobalOptions.databaseOption),
    (.output, GlobalOptions.resumeOption),
    (.consumer, GlobalOptions.consumerKeyOption), (.consumer, GlobalOptions.consumerSecretOption),
  ]

  /// The options of these groups, in help order.
  var options: [any OptionDeclaration] {
    Self.declarations.filter { contains($0.group) }.map(\.option)
  }
}
