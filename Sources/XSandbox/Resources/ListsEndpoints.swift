import Foundation

/// Lists: the posts of a list's members (`x-api/lists/list-tweets`); the sandbox has one list.
extension SandboxRoute {
  static let lists: [SandboxRoute] = [
    SandboxRoute(
      method: "GET", pattern: ["2", "lists", "*", "tweets"], name: "v2_list_tweets", limit: 900, allowed: pageParameters + tweetExtra,
      scopes: ["list.read", "tweet.read", "users.read"], billing: .resources(.post)
    ) {
      $0.v2ListTweets($1)
    }
  ]
}

// MARK: - Handlers (lock held)

extension SandboxState {
  /// `GET /2/lists/:id/tweets`: the tweets of the list's members; a 404 for any other list.
  func v2ListTweets(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    if let bad = badID(id) { return bad }
    guard id == SandboxData.listID else { return .v2(404, XBodies.missingResource(id, resourceType: "list")) }
    return tweetsByPosition(ctx, tweets.filter { SandboxData.listMembers.contains($0.authorID) }, range: 1...100, defaultCount: 100)
  }
}
