import DateFormats
import Foundation
import NetworkClient

/// The project's post consumption as X reports it (`GET /2/usage/tweets`): posts read this
/// billing cycle against the cap, the day the cycle resets, and posts read per day, for the
/// project and per app. Counts, not money: X's answers carry no cost, which is why a client
/// keeps its own ``XLedger``.
///
/// X's specification gives the counts as strings and some answers send numbers; both are read.
///
/// ```swift
/// let usage = try await appOnlyClient.v2.usage(days: 30)
/// print(usage.projectUsage, "of", usage.projectCap ?? 0, "posts; resets on day", usage.capResetDay ?? 0)
/// ```
public struct XUsage: Sendable, Hashable {
  /// One day's count.
  public struct Day: Sendable, Hashable {
    /// The UTC day (`YYYY-MM-DD`).
    public var day: String
    /// Posts read that day.
    public var posts: Int

    /// A day's count.
    public init(day: String, posts: Int) {
      self.day = day
      self.posts = posts
    }
  }

  /// The project's id.
  public var projectID: String?
  /// Posts read in this billing cycle.
  public var projectUsage: Int
  /// Posts allowed per cycle.
  public var projectCap: Int?
  /// The day of the month the cycle resets.
  public var capResetDay: Int?
  /// Posts read per day by the whole project, oldest first.
  public var daily: [Day]
  /// Posts read per day by each app, by app id.
  public var dailyByApp: [String: [Day]]
}

extension XClient.V2 {
  /// `GET /2/usage/tweets` over the last `days` (1–90): the project's post reads against its cap
  /// ([X's page](https://docs.x.com/x-api/usage/introduction)). X serves it app-only: call it on
  /// a client authenticated with `.bearer`. Not billed.
  public func usage(days: Int = 30) async throws(XError) -> XUsage {
    let fields = "cap_reset_day,daily_client_app_usage,daily_project_usage,project_cap,project_id,project_usage"
    let query: [QueryItem] = [("days", String(min(max(days, 1), 90))), ("usage.fields", fields)]
    let response = try await client.send(Request<V2UsageResponse>(path: XEndpoint.getUsage.filled(), query: query))
    let data = response.value.data
    func perDay(_ entries: [V2UsageResponse.Entry]?) -> [XUsage.Day] {
      (entries ?? []).compactMap { entry in
        guard let date = entry.date.flatMap(RFC3339.date(from:)) ?? entry.date.flatMap(RFC3339.date(fromTimeOrDay:)) else { return nil }
        return XUsage.Day(day: RFC3339.dayString(from: date), posts: entry.usage?.value ?? 0)
      }.sorted { $0.day < $1.day }
    }
    var byApp: [String: [XUsage.Day]] = [:]
    for app in data?.dailyClientAppUsage ?? [] {
      if let id = app.clientAppID?.text { byApp[id] = perDay(app.usage) }
    }
    return XUsage(
      projectID: data?.projectID?.text, projectUsage: data?.projectUsage?.value ?? 0, projectCap: data?.projectCap?.value,
      capResetDay: data?.capResetDay?.value, daily: perDay(data?.dailyProjectUsage?.usage), dailyByApp: byApp)
  }
}

/// The wire form of `GET /2/usage/tweets` (X's `Usage` schema).
struct V2UsageResponse: Decodable, Sendable {
  let data: Data?

  struct Data: Decodable, Sendable {
    let projectID: Number?
    let projectUsage: Number?
    let projectCap: Number?
    let capResetDay: Number?
    let dailyProjectUsage: Project?
    let dailyClientAppUsage: [App]?

    enum CodingKeys: String, CodingKey {
      case projectID = "project_id"
      case projectUsage = "project_usage"
      case projectCap = "project_cap"
      case capResetDay = "cap_reset_day"
      case dailyProjectUsage = "daily_project_usage"
      case dailyClientAppUsage = "daily_client_app_usage"
    }
  }

  struct Project: Decodable, Sendable { let usage: [Entry]? }

  struct App: Decodable, Sendable {
    let clientAppID: Number?
    let usage: [Entry]?
    enum CodingKeys: String, CodingKey {
      case clientAppID = "client_app_id"
      case usage
    }
  }

  struct Entry: Decodable, Sendable {
    let date: String?
    let usage: Number?
  }

  /// A count X sends as a string (its specification) or as a number (some answers).
  struct Number: Decodable, Sendable {
    let text: String
    var value: Int? { Int(text) }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Int64.self) { text = String(number) } else { text = try container.decode(String.self) }
    }
  }
}
