import CommandLineSupport
import DateFormats
import Foundation
import XAPI
import XArchive

/// `tweets compliance`: X's batch compliance (app-only) over an archive (`--db`), whose results
/// are applied to it; over a list of ids (`--ids`), whose results are printed as JSON lines; or
/// `tweets compliance jobs`, the app's jobs. An archive remembers its job, so that a killed run
/// resumes it without uploading again while X still holds the ids.
struct ComplianceCommand: TweetsCommand {
  let name = "compliance"
  let shared: SharedOptions = [.session, .database]
  static let type = Option<ComplianceJob.Kind>.value(
    "type", placeholder: "tweets|users", default: .value(.tweets),
    help: "Check the posts' ids (default) or the users' (an account removed takes its posts with it).",
    ArgumentConversion(expecting: "tweets or users") { ComplianceJob.Kind(rawValue: $0) })
  static let ids = Option<String?>.value(
    "ids", placeholder: "FILE|-", help: "Check these ids (one per line; - for standard input) and print the results as JSON lines.",
    recorded: .omitted, .string)
  static let pollInterval = Option<Double>.value(
    "poll-interval", placeholder: "SECONDS", default: .value(30), help: "Seconds between X's status checks (default \(.default), as X suggests).",
    ArgumentConversion(failure: { option, text in "--\(option) takes a number of seconds above 0, not \(text)" }) { text in
      Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    })
  static let jobName = Option<String?>.value("name", placeholder: "NAME", help: "The job's name at X.", recorded: .omitted, .string)

  var spec: CommandSpec {
    makeSpec(
      summary: "Follow what authors did since (deleted, protected, suspended): X's batch compliance over an archive or a list of ids.",
      options: [Self.type, Self.ids, Self.pollInterval, Self.jobName],
      positionals: [PositionalSpec("jobs", help: "jobs: list the app's compliance jobs", optional: true)],
      discussion: """
        tweets compliance --db FILE [--type tweets|users]   check the archive's ids and apply the results
        tweets compliance --ids FILE|- [--type users]      check ids, print the results as JSON lines
        tweets compliance jobs [--type users]              list the app's jobs
        X's developer terms require a stored dataset to follow its authors: a deleted, protected,
        suspended or deactivated post loses its text, raw JSON, media, hashtags and references
        (its id stays in compliance_events, with the event, the job and the date), written so
        that no copy is left in the database's files; scrub_geo removes a post's location; an
        edited post is listed for tweets hydrate. A result for an id that was not uploaded is
        ignored (and counted on standard error). A killed run resumes its job. App-only:
        X_BEARER_TOKEN, or one obtained from the app's consumer key and secret.
        """)
  }

  func run(_ arguments: ParsedArguments, _ session: Session) async throws -> ExitCode {
    let type = try arguments.value(Self.type)
    if arguments.positionals.first == "jobs" {
      guard arguments.positionals.count == 1 else { throw UsageError("tweets compliance jobs takes no more arguments") }
      return try await jobs(type: type, session)
    }
    if let word = arguments.positionals.first { throw UsageError("tweets compliance takes no argument but jobs, not \(CommandSpec.shown(word))") }
    let interval = try arguments.value(Self.pollInterval)
    let name = try arguments.value(Self.jobName)
    switch (session.options.database, try arguments.value(Self.ids)) {
    case (let database?, nil):
      guard FileManager.default.fileExists(atPath: database.path) else { throw UsageError("no archive at \(database.path)") }
      return try await archive(database, type: type, name: name, interval: interval, session)
    case (nil, let ids?):
      return try await list(ids, type: type, name: name, interval: interval, session)
    case (.some, .some):
      throw UsageError("give --db FILE or --ids FILE, not both")
    case (nil, nil):
      throw UsageError("give --db FILE (an archive to bring up to date) or --ids FILE|- (ids to check), or jobs")
    }
  }

  /// The archive's job: resumed when the archive has one X still holds, else created with the
  /// archive's ids; then its results applied.
  private func archive(_ database: URL, type: ComplianceJob.Kind, name: String?, interval: Double, _ session: Session) async throws -> ExitCode {
    let archive = try TweetArchive(path: database.path)
    defer { archive.close() }
    let client = try await session.appClient(for: "compliance")
    let terminal = session.terminal
    var job: ComplianceJob?
    // The ids this run uploaded; `nil` when a run before uploaded them (then only the archive's
    // own posts can be touched by the results: others are "already gone").
    var uploaded: Set<String>?
    if let pending = try archive.pendingComplianceJob(type: type) {
      let found = try? await client.v2.complianceJob(id: pending.id)
      switch found?.status {
      case .inProgress?, .complete?:
        terminal.err(
          TerminalText.visible("Resuming compliance job \(pending.id) (\(pending.ids) ids, created \(pending.createdAt)); X holds its ids."))
        job = found
      case .created? where found?.uploadExpiresAt.map({ $0 > Date() }) ?? false:
        terminal.err(TerminalText.visible("Resuming compliance job \(pending.id): its upload did not finish, sending the ids again."))
        (job, uploaded) = try await upload(found!, archive: archive, type: type, client, session)
      default:
        terminal.err(TerminalText.visible("Compliance job \(pending.id) is \(found?.status.description ?? "unknown to X"): creating a new one."))
        try archive.markComplianceJob(id: pending.id, .abandoned)
      }
    }
    if job == nil {
      let created = try await client.v2.createComplianceJob(type: type, name: name ?? "tweets \(database.lastPathComponent)")
      try archive.recordComplianceJob(id: created.id, type: type, ids: 0)
      (job, uploaded) = try await upload(created, archive: archive, type: type, client, session)
    }
    let done = try await complete(job!, interval: interval, client, session)
    let results = Self.uploadedOnly(try await client.v2.complianceResults(of: done), uploaded: uploaded, job: done.id, terminal)
    let summary = try archive.applyCompliance(results, job: done.id, type: type)
    // The removed media's downloaded files go too: they hold the removed content. Only the files
    // downloaded, where they were downloaded (MediaFileRemoval); each other one is named.
    var removedFiles = 0, keptFiles = 0
    for file in summary.mediaFiles {
      switch MediaFileRemoval.remove(file) {
      case .removed: removedFiles += 1
      case .absent: break
      case .kept(let reason):
        keptFiles += 1
        terminal.err(TerminalText.visible("tweets: did not delete \(file.path), the file of removed media \(file.mediaKey): \(reason)"))
      }
    }
    var parts = ["removed \(summary.removedPosts) post\(summary.removedPosts == 1 ? "" : "s")"]
    if type == .users { parts.append("\(summary.removedUsers) account\(summary.removedUsers == 1 ? "" : "s")") }
    if removedFiles > 0 { parts.append("deleted \(removedFiles) downloaded media file\(removedFiles == 1 ? "" : "s")") }
    if keptFiles > 0 { parts.append("\(keptFiles) downloaded media file\(keptFiles == 1 ? "" : "s") not deleted (named above)") }
    if summary.scrubbedGeo > 0 { parts.append("removed the location of \(summary.scrubbedGeo)") }
    if summary.notInArchive > 0 { parts.append("\(summary.notInArchive) already gone") }
    if summary.invalid > 0 { parts.append("\(summary.invalid) ids X could not read") }
    terminal.out(
      TerminalText.visible("Compliance job \(done.id) (\(type.rawValue)): \(results.count) results, ") + parts.joined(separator: ", ") + ".")
    if !summary.rehydrate.isEmpty {
      terminal.out("\(summary.rehydrate.count) edited post\(summary.rehydrate.count == 1 ? "" : "s") to fetch again (tweets hydrate IDS):")
      for id in summary.rehydrate { terminal.out("  \(id)") }
    }
    // The archive is brought in line; a file that still holds removed content is the user's to delete.
    return keptFiles > 0 ? .failure : .success
  }

  /// Writes the archive's ids to a temporary file, uploads it, and marks the job uploaded; and
  /// returns the ids uploaded.
  private func upload(
    _ job: ComplianceJob, archive: TweetArchive, type: ComplianceJob.Kind, _ client: XClient, _ session: Session
  ) async throws -> (ComplianceJob, Set<String>) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-compliance-\(UUID().uuidString).txt")
    guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
      let handle = try? FileHandle(forWritingTo: file)
    else { throw TweetsFailure("cannot write a temporary file in \(file.deletingLastPathComponent().path)", exitCode: .failure) }
    defer { try? FileManager.default.removeItem(at: file) }
    let count = try archive.writeComplianceIDs(type: type, to: handle)
    try handle.close()
    session.terminal.err(TerminalText.visible("Uploading \(count) \(type == .tweets ? "post" : "user") ids for compliance job \(job.id) …"))
    try await client.v2.uploadComplianceIDs(for: job, file: file)
    try archive.markComplianceJobUploaded(id: job.id, ids: count)
    let ids = FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isNewline) } ?? []
    return (job, Set(ids.map(Self.normalized)))
  }

  /// Of `results`, those for an id that was uploaded (all of them when `uploaded` is `nil`).
  /// X answers one line per uploaded id: a line for any other id is a server's mistake, or a
  /// hostile one, and must not remove a post nobody asked about. The others are left out and
  /// counted on standard error.
  static func uploadedOnly(_ results: [ComplianceResult], uploaded: Set<String>?, job: String, _ terminal: Terminal) -> [ComplianceResult] {
    guard let uploaded else { return results }
    let kept = results.filter { uploaded.contains(normalized($0.id)) }
    let ignored = results.count - kept.count
    if ignored > 0 {
      terminal.err(
        TerminalText.visible(
          "tweets: warning: compliance job \(job) answered \(ignored) result\(ignored == 1 ? "" : "s") for ids that were not uploaded; "
            + "\(ignored == 1 ? "it is" : "they are") ignored."))
    }
    return kept
  }

  /// An id as uploaded and as X may write it back: without leading zeros when it is a number.
  static func normalized(_ id: some StringProtocol) -> String {
    let text = id.trimmingCharacters(in: .whitespaces)
    return UInt64(text).map(String.init) ?? text
  }

  /// Polls the job every `interval` seconds until it is complete; a failed or expired job is an error.
  private func complete(_ start: ComplianceJob, interval: Double, _ client: XClient, _ session: Session) async throws -> ComplianceJob {
    var job = start
    var polls = 0
    while true {
      if polls > 0 || job.status != .complete { job = try await client.v2.complianceJob(id: job.id) }
      polls += 1
      switch job.status {
      case .complete:
        session.terminal.status("")
        return job
      case .failed, .expired, .other:
        throw TweetsFailure(
          "X says compliance job \(job.id) is \(job.status): run tweets compliance again to create a new one", exitCode: .failure)
      case .created, .inProgress:
        session.terminal.status(
          TerminalText.visible("compliance job \(job.id): \(job.status)")
            + ", checked \(polls) time\(polls == 1 ? "" : "s"); next in \(Int(interval)) s")
        try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
      }
    }
  }

  /// `--ids`: a job over the ids read, its results printed as JSON lines.
  private func list(_ source: String, type: ComplianceJob.Kind, name: String?, interval: Double, _ session: Session) async throws -> ExitCode {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-compliance-\(UUID().uuidString).txt")
    var text = Data()
    var count = 0
    var uploaded: Set<String> = []
    func take(_ line: Substring) throws {
      let id = line.trimmingCharacters(in: .whitespaces)
      if id.isEmpty { return }
      guard IDLookup.isTweetID(id) else { throw UsageError("\(CommandSpec.shown(id)) in the ids is not an id (digits only)") }
      text.append(contentsOf: (id + "\n").utf8)
      uploaded.insert(Self.normalized(id))
      count += 1
    }
    if source == "-" {
      while let line = session.terminal.readLine() { try take(Substring(line)) }
    } else {
      guard let data = FileManager.default.contents(atPath: source) else { throw UsageError("cannot read \(source)") }
      for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) { try take(line) }
    }
    guard count > 0 else { throw UsageError("no ids to check in \(source == "-" ? "standard input" : source)") }
    guard FileManager.default.createFile(atPath: file.path, contents: text, attributes: [.posixPermissions: 0o600]) else {
      throw TweetsFailure("cannot write a temporary file in \(file.deletingLastPathComponent().path)", exitCode: .failure)
    }
    defer { try? FileManager.default.removeItem(at: file) }
    let client = try await session.appClient(for: "compliance")
    let job = try await client.v2.createComplianceJob(type: type, name: name ?? "tweets compliance")
    session.terminal.err(TerminalText.visible("Uploading \(count) ids for compliance job \(job.id) …"))
    try await client.v2.uploadComplianceIDs(for: job, file: file)
    let done = try await complete(job, interval: interval, client, session)
    for result in Self.uploadedOnly(try await client.v2.complianceResults(of: done), uploaded: uploaded, job: done.id, session.terminal) {
      session.terminal.out(result.jsonLine)
    }
    return .success
  }

  /// `jobs`: the app's recent jobs of `type`.
  private func jobs(type: ComplianceJob.Kind, _ session: Session) async throws -> ExitCode {
    let jobs = try await session.appClient(for: "compliance jobs").v2.complianceJobs(type: type)
    if jobs.isEmpty { session.terminal.err("No \(type.rawValue) compliance jobs.") }
    for job in jobs {
      let created = job.createdAt.map { RFC3339.string(from: $0) } ?? "-"
      session.terminal.out(TerminalText.visible("\(job.id)  \(job.type.rawValue)  \(job.status)  \(created)" + (job.name.map { "  \($0)" } ?? "")))
    }
    return .success
  }
}
