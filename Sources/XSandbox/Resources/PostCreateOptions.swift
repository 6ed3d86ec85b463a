/// The options of `POST /2/tweets` beyond text, reply, quote and media, checked as X's
/// specification (`TweetCreateRequest`) has them: a poll of 2 to 4 choices of 1 to 25
/// characters open 5 to 10080 minutes, `reply_settings` among X's four, `edit_options` with a
/// post id, `community_id` an id, `paid_partnership` and `made_with_ai` booleans. A refusal is
/// X's 400 naming the field.
struct PostCreateOptions {
  /// Whether the post has a poll.
  var poll = false
  /// The post this one edits.
  var previousPostID: String?

  init(_ fields: [String: Any]) throws(SandboxRefusal) {
    func refuse(_ message: String) -> SandboxRefusal { SandboxRefusal(.v2(400, XBodies.invalidBody(message))) }
    if let value = fields["poll"] {
      guard let poll = value as? [String: Any], let options = poll["options"] as? [String], (2...4).contains(options.count),
        options.allSatisfy({ (1...25).contains($0.count) })
      else { throw refuse("$.poll.options: 2 to 4 choices of 1 to 25 characters are required") }
      guard let minutes = poll["duration_minutes"] as? Int, (5...10080).contains(minutes) else {
        throw refuse("$.poll.duration_minutes: is missing but it is required, or is not 5 to 10080")
      }
      self.poll = true
    }
    if let value = fields["reply_settings"] {
      guard let who = value as? String, ["following", "mentionedUsers", "subscribers", "verified"].contains(who) else {
        throw refuse("$.reply_settings: does not have a value in the enumeration [following, mentionedUsers, subscribers, verified]")
      }
    }
    if let value = fields["edit_options"] {
      guard let edit = value as? [String: Any], let id = edit["previous_post_id"] as? String, isID(id) else {
        throw refuse("$.edit_options.previous_post_id: is missing but it is required, or does not match ^[0-9]{1,19}$")
      }
      previousPostID = id
    }
    if let value = fields["community_id"] {
      guard let id = value as? String, isID(id) else { throw refuse("$.community_id: does not match ^[0-9]{1,19}$") }
    }
    for flag in ["paid_partnership", "made_with_ai"] where fields[flag] != nil {
      guard fields[flag] is Bool else { throw refuse("$.\(flag): is not a boolean") }
    }
  }
}
