/// `tweet.fields` (or its name in X's specification 2.167, `post.fields`: the two are merged),
/// `user.fields`, `media.fields` and `expansions`.
struct Fields {
  let tweet: Set<String>
  let user: Set<String>
  let media: Set<String>
  let expansions: Set<String>

  init(_ query: [String: String]) {
    tweet = Set(splitList(query["tweet.fields"]) + splitList(query["post.fields"]))
    user = Set(splitList(query["user.fields"]))
    media = Set(splitList(query["media.fields"]))
    expansions = Set(splitList(query["expansions"]))
  }
}
