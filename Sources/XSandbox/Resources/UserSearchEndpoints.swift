/// `GET /2/users/search` (`x-api/users/search`): the accounts whose username, name or bio hold
/// every word of `query` (any case), the cast before the fans, paged by position with
/// `next_token` (`max_results` 1–1000, 100 without it, as X's specification 2.167 has it). It
/// reads the fixed cast only: it keeps no state of its own.
enum SandboxUserSearch {
  static func answer(_ ctx: RouteContext, _ state: SandboxState) -> SandboxResponse {
    let words = (ctx.query["query"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else {
      return .v2(400, XBodies.invalidRequest("query", [], "The `query` query parameter can not be empty"))
    }
    let found = (SandboxData.users + SandboxData.fans).filter { user in
      let text = [user.username, user.name, user.description].joined(separator: " ").lowercased()
      return words.allSatisfy { text.contains($0) }
    }
    do throws(SandboxRefusal) {
      return try state.usersByPosition(ctx, found, range: 1...1000, defaultCount: 100, tokenName: "next_token", counted: false)
    } catch {
      return error.response
    }
  }
}
