extension XActivitySubscription {
  /// The event types X's specification (2.167) takes in a subscription, dotted as X names them
  /// since 2026-03-18 (`chat.conversation_join` is X's deprecated alias of
  /// `chat.conversation.join`): for a program to check a type before X refuses it.
  ///
  /// ```swift
  /// XActivitySubscription.eventTypes.contains("post.create")  // true
  /// ```
  public static let eventTypes: [String] = [
    "profile.update.bio", "profile.update.profile_picture", "profile.update.banner_picture", "profile.update.screenname",
    "profile.update.geo", "profile.update.url", "profile.update.verified_badge", "profile.update.affiliate_badge", "profile.update.handle",
    "news.new", "follow.follow", "follow.unfollow", "spaces.start", "spaces.end", "broadcast.start", "broadcast.end", "broadcast.chat",
    "chat.received", "chat.sent", "chat.conversation.join", "chat.conversation_join", "chat.conversation.member_added",
    "chat.conversation.member_removed", "chat.conversation.admin_added", "chat.conversation.admin_removed", "chat.update.group_name",
    "chat.update.restrictions", "dm.sent", "dm.received", "dm.indicate_typing", "dm.read", "post.create", "post.delete",
    "post.mention.create", "post.reply.create", "post.quote.create", "post.repost.create", "like.create", "mute.mute", "mute.unmute",
    "block.block", "block.unblock",
  ]
}
