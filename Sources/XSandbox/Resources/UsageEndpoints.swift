import DateFormats
import Foundation

/// Usage: the project's post reads as X reports them (`GET /2/usage/tweets`, `x-api/usage/*.mdx`),
/// from the same accounts the sandbox bills with (``SandboxBilling``). App-only, like the counts,
/// and free.
extension SandboxRoute {
  static let usage: [SandboxRoute] = [
    SandboxRoute(method: "GET", pattern: ["2", "usage", "tweets"], name: "v2_usage", limit: 50, appOnly: true, allowed: ["days", "usage.fields"]) {
      $0.v2Usage($1)
    }
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// The fields of X's `Usage` schema.
  static let usageFields = ["cap_reset_day", "daily_client_app_usage", "daily_project_usage", "project_cap", "project_id", "project_usage"]

  /// The sandbox project's id, as `GET /2/usage/tweets` names it: within 32 bits, since X's
  /// specification types `daily_project_usage.project_id` as an `int32`.
  static let sandboxProjectID = 1_930_000_001

  /// `GET /2/usage/tweets[?days=1…90][&usage.fields=…]`: in X's `Usage` shape (specification
  /// 2.166) and as X's page shows it (`x-api/usage/introduction.mdx`): counts as numbers
  /// (`project_usage`, `project_cap`, `cap_reset_day`, each day's `usage`), `project_id` a
  /// string but a number in `daily_project_usage`, each day's `date` at midnight UTC.
  /// `project_id`, `project_usage`, `project_cap` and `cap_reset_day` are always there; the
  /// daily lists (`daily_project_usage`, `daily_client_app_usage`: the one app, the demo app)
  /// when `usage.fields` asks for them, with the days of the last `days` (7 by default) that had
  /// posts charged, oldest first, and their `usage` left out when no day had any (the
  /// specification's lists hold at least one). The cycle is the sandbox's life; the cap is
  /// `--post-cap`, or X's monthly cap when none is given. When the sandbox does not bill, it
  /// counts nothing.
  func v2Usage(_ ctx: RouteContext) -> SandboxResponse {
    let rawDays = ctx.query["days"] ?? "7"
    guard let days = Int(rawDays), (1...90).contains(days) else {
      return .v2(400, XBodies.invalidRequest("days", [rawDays], "The `days` query parameter value [\(rawDays)] is not between 1 and 90"))
    }
    let asked = splitList(ctx.query["usage.fields"])
    if let bad = asked.first(where: { !Self.usageFields.contains($0) }) {
      return .v2(
        400,
        XBodies.invalidRequest(
          "usage.fields", [ctx.query["usage.fields"] ?? ""],
          "The `usage.fields` query parameter value [\(bad)] is not one of [\(Self.usageFields.joined(separator: ","))]"))
    }
    let firstDay = Self.billingDay(ctx.now - Int64(days - 1) * 86_400)
    let daily: [JSON] = billing.postsPerDay.filter { $0.key >= firstDay }.sorted { $0.key < $1.key }.map { day, posts in
      .object([("date", .string(day + "T00:00:00.000Z")), ("usage", .int(posts))])
    }
    let resetDay = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(epochSeconds: cycleStart)).day ?? 1
    let usage: [(String, JSON)] = daily.isEmpty ? [] : [("usage", .array(daily))]
    var fields: [(String, JSON)] = [("cap_reset_day", .int(resetDay))]
    if asked.contains("daily_client_app_usage") {
      let app: JSON = .object([("client_app_id", .string(XBodies.sandboxClientID))] + usage + [("usage_result_count", .int(daily.count))])
      fields.append(("daily_client_app_usage", .array([app])))
    }
    if asked.contains("daily_project_usage") {
      fields.append(("daily_project_usage", .object([("project_id", .int(Self.sandboxProjectID))] + usage)))
    }
    fields += [
      ("project_cap", .int(billing.postCap ?? billing.pricing.monthlyPostReadCap)), ("project_id", .string(String(Self.sandboxProjectID))),
      ("project_usage", .int(billing.postsInCycle)),
    ]
    return .v2(200, .object([("data", .object(fields))]))
  }
}
