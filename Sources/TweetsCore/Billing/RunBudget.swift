import DateFormats
import Foundation
import NetworkClient
import XAPI
import XArchive

/// The spending account of one run: the ``XBudgetBehavior`` every X client of the run carries,
/// made on first use (a command that sends nothing opens no ledger).
///
/// Its limits are `--max-cost`, for this run, and the profile's (`tweets budget`), for the
/// billing cycle: every run of the profile shares it, checked before each request against what
/// the profile's ledger recorded since the cycle began (``UsageCommand/cycleStart(today:resetDay:)``,
/// with the reset day `tweets usage` last learnt from X). Without either the account is still kept. Its ledger is the profile's, in the config directory
/// (`ledgers/PROFILE.sqlite`: X bills per app, and a profile is one app's), and its prices X's
/// published ones with `pricing.json` of the config directory laid over them. A ledger that
/// cannot be opened fails the run when a limit is set (a budget must know what was bought today)
/// and is replaced by one in memory, with a warning, when none is.
///
/// X bills the reads of one's own data at the owned-read price (`/2/users/{id}/tweets` where
/// `{id}` is the authenticated user). The ledger prices them so when it knows the account: see
/// ``ownerUserID(environment:profile:api:demoToken:)``. When it cannot, it records them at the full
/// price and says so once on standard error.
final class RunBudget: Sendable {
  private let made = Locked<XBudgetBehavior?>(nil)
  /// Whether the note on an unknown account was written (once a run).
  private let notedUnknownOwner = Locked(false)

  /// The budget of `session`'s run.
  func behavior(_ session: Session) throws -> XBudgetBehavior {
    if let made = made.withLock({ $0 }) { return made }
    let profile = try? session.store.profile(named: session.options.profileName)
    let limit = session.options.maxCost
    let cycleLimit = try profile?.maxCost.map { text in
      guard let amount = USD(text) else {
        let what = USD.isAmount(text) ? "past the largest amount, \(USD.maximum)" : "not an amount"
        throw TweetsFailure(
          "profile \"\(session.options.profileName)\" has a spending limit that is \(what) (\(text)): set it again with tweets budget USD",
          exitCode: .usage)
      }
      return amount
    }
    let pricing = try Self.pricing(in: session.options.configDirectory)
    let ledger = try Self.ledger(session, limited: limit != nil || cycleLimit != nil)
    let owner = Self.ownerUserID(
      environment: session.environment, profile: profile, api: session.options.api,
      demoToken: session.sandbox != nil ? session.sandboxType.demoAccessToken.key : nil)
    let terminal = session.terminal, noted = notedUnknownOwner
    let shared = cycleLimit.map { amount in
      let since = UsageCommand.cycleStart(today: RFC3339.dayString(from: Date()), resetDay: profile?.capResetDay)
      return XSharedLimit(limit: amount, since: since, scope: "this billing cycle (since \(since))")
    }
    let behavior = XBudgetBehavior(
      limit: limit, pricing: pricing, ledger: ledger, command: session.options.commandLine.first ?? "tweets", ownerUserID: owner,
      onUnknownOwner: { userID in
        guard
          noted.withLock({ noted in
            defer { noted = true }
            return !noted
          })
        else { return }
        terminal.err(Self.unknownOwnerNote(userID: userID, pricing: pricing))
      },
      warn: { terminal.err("tweets: warning: " + $0) }, shared: shared)
    return made.withLock { made in
      if let existing = made { return existing }
      made = behavior
      return behavior
    }
  }

  /// The account whose token the run's user requests carry, for owned reads: with OAuth 2.0
  /// (a profile that has it, and v2), the id `users/me` gave at `tweets login --oauth2`; with
  /// OAuth 1.0a, the id an access token from the environment begins with (X's tokens are
  /// `ID-random`, ``XBilling/userID(ofAccessToken:)``), else the profile's (its login looked it
  /// up), else its token's, else the sandbox demo token's. `nil` when none of them says: an
  /// environment token of another form, or a profile without an id. A profile's id is never
  /// used for a token from the environment, which may be another account's.
  static func ownerUserID(environment: [String: String], profile: Profile?, api: GlobalOptions.APIVersion, demoToken: String?) -> String? {
    if profile?.oauth2 != nil && api == .v2 { return profile?.userID }
    if let token = environment["X_ACCESS_TOKEN"] ?? environment["TWITTER_ACCESS_TOKEN"] { return XBilling.userID(ofAccessToken: token) }
    if let token = profile?.accessToken { return profile?.userID ?? XBilling.userID(ofAccessToken: token) }
    return demoToken.flatMap(XBilling.userID(ofAccessToken:))
  }

  /// What a run says, once, when it reads a user's own data without knowing whose token it has.
  static func unknownOwnerNote(userID: String, pricing: XPricing) -> String {
    "tweets: note: the ledger does not know whose access token this is (it does not begin with a numeric user id, "
      + "and the profile records none), so it records the reads of user \(userID)'s data at the full price; "
      + "if that is your account and your app, X bills them as owned reads (\(pricing.ownedRead) each). "
      + "`tweets login` records the account."
  }

  /// X's published prices, with the config directory's `pricing.json` over them when it exists.
  static func pricing(in directory: URL) throws -> XPricing {
    let file = directory.appendingPathComponent("pricing.json")
    guard FileManager.default.fileExists(atPath: file.path) else { return .published }
    do {
      return try XPricing.published.load(contentsOf: file)
    } catch {
      throw TweetsFailure(error.description, exitCode: .usage)
    }
  }

  /// The ledger file of a profile.
  static func ledgerFile(_ directory: URL, profile: String) -> URL {
    directory.appendingPathComponent("ledgers").appendingPathComponent(profile + ".sqlite")
  }

  private static func ledger(_ session: Session, limited: Bool) throws -> any XLedger {
    let file = ledgerFile(session.options.configDirectory, profile: session.options.profileName)
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      return try SQLiteLedger(path: file.path)
    } catch {
      let reason = "cannot open the ledger of X's charges, \(file.path): \(error)"
      if limited { throw TweetsFailure(reason + "; a spending limit needs it to know what was bought today", exitCode: .failure) }
      session.terminal.err("tweets: warning: \(reason); this run's charges are not recorded")
      return InMemoryXLedger()
    }
  }
}
