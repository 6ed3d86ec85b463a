import Foundation
import XAPI

extension XSandbox {
  /// `/_control/billing`: the sandbox's account with X, as a developer console shows it. A body
  /// changes it first, then the account is answered:
  ///
  /// - `{"credits": "5.00"}` sets the balance (and starts billing when off);
  ///   `{"add_credits": "1.00"}` adds to it (the console's top-up); amounts are strings of
  ///   dollars (numbers are read too).
  /// - `{"post_cap": 100}` sets the post cap (`null`: none).
  ///
  /// The account: `metered`, `balance` (dollars as a string; `null` when the sandbox does not
  /// bill credits), `spent`, `post_cap`, `posts_in_cycle`, `posts_per_day` (`{"2026-11-26": 12}`)
  /// and `charges`, the totals by kind (`{"post": {"count": 12, "amount": "0.06"}}`; an owned
  /// read's kind ends in `_owned`, a request's is its kind: `post_create_with_url`).
  ///
  /// ```sh
  /// curl -H "X-Sandbox-Control-Token: $T" -H 'Content-Type: application/json' \
  ///   -d '{"add_credits": "1.00"}' http://127.0.0.1:8977/_control/billing
  /// ```
  func billingControl(_ json: [String: Any]) -> (object: [String: Any], status: Int) {
    func amount(_ name: String) -> (value: USD?, error: String?) {
      guard let raw = json[name] else { return (nil, nil) }
      let text = (raw as? String) ?? (raw as? NSNumber)?.stringValue ?? ""
      guard let value = USD(text) else { return (nil, "\(name) takes an amount of dollars such as \"5.00\", not \(raw)") }
      return (value, nil)
    }
    let credits = amount("credits"), added = amount("add_credits")
    if let error = credits.error ?? added.error { return (["error": error], 400) }
    var cap: Int?? = nil
    if let raw = json["post_cap"] {
      guard raw is NSNull || ((raw as? Int).map { $0 >= 0 } ?? false) else {
        return (["error": "post_cap takes a number of posts (0 or more) or null, not \(raw)"], 400)
      }
      cap = .some(raw as? Int)
    }
    let known: Set = ["credits", "add_credits", "post_cap"]
    if let unknown = json.keys.sorted().first(where: { !known.contains($0) }) {
      return (["error": "unknown billing field \(unknown); known: \(known.sorted().joined(separator: ", "))"], 400)
    }
    return state.withLock { state in
      if let value = credits.value { state.billing.set(credits: value) }
      if let value = added.value { state.billing.add(credits: value) }
      if let cap { state.billing.postCap = cap }
      return (state.billing.account, 200)
    }
  }
}

extension SandboxBilling {
  /// The account as the control API answers it (``XSandbox/billingControl(_:)``).
  var account: [String: Any] {
    [
      "metered": isMetered, "balance": balance.map { $0.decimal as Any } ?? NSNull(), "spent": spent.decimal,
      "post_cap": postCap.map { $0 as Any } ?? NSNull(), "posts_in_cycle": postsInCycle, "posts_per_day": postsPerDay,
      "charges": totals.mapValues { ["count": $0.count, "amount": $0.amount.decimal] as [String: Any] },
    ]
  }
}
