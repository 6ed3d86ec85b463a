/// One item a tool returns from a Content-Item selection (Content-Item Message 1.0, JSON-LD):
/// most often an LTI link the platform will launch (``ltiLink(url:title:text:custom:)``).
///
/// ```swift
/// let item = LTIContentItem.ltiLink(url: "https://tool.example.edu/launch?quiz=7", title: "Quiz 7")
/// ```
public struct LTIContentItem: Sendable, Hashable, Encodable {
  /// `@type`: `LtiLinkItem`, `ContentItem` or `FileItem`.
  public var type: String
  /// `mediaType`: `application/vnd.ims.lti.v1.ltilink` for an LTI link.
  public var mediaType: String
  /// `@id` (or `url` for a plain item): where the item is.
  public var url: String?
  /// `title`.
  public var title: String?
  /// `text`: a description.
  public var text: String?
  /// `placementAdvice.presentationDocumentTarget`: `iframe`, `window`, `embed`…
  public var documentTarget: String?
  /// `custom`: parameters the platform sends back with each launch of an LTI link.
  public var custom: [String: String]?

  /// An item of any type.
  public init(
    type: String, mediaType: String, url: String? = nil, title: String? = nil, text: String? = nil, documentTarget: String? = nil,
    custom: [String: String]? = nil
  ) {
    self.type = type
    self.mediaType = mediaType
    self.url = url
    self.title = title
    self.text = text
    self.documentTarget = documentTarget
    self.custom = custom
  }

  /// An LTI link: the platform launches `url` with these custom parameters.
  public static func ltiLink(url: String, title: String? = nil, text: String? = nil, custom: [String: String]? = nil) -> LTIContentItem {
    LTIContentItem(
      type: "LtiLinkItem", mediaType: "application/vnd.ims.lti.v1.ltilink", url: url, title: title, text: text, documentTarget: "iframe",
      custom: custom)
  }

  private enum CodingKeys: String, CodingKey {
    case type = "@type"
    case mediaType, url, title, text, placementAdvice, custom
  }

  private struct PlacementAdvice: Encodable {
    let presentationDocumentTarget: String
  }

  /// Writes the item as JSON-LD.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
    try container.encode(mediaType, forKey: .mediaType)
    try container.encodeIfPresent(url, forKey: .url)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encodeIfPresent(text, forKey: .text)
    try container.encodeIfPresent(documentTarget.map(PlacementAdvice.init), forKey: .placementAdvice)
    try container.encodeIfPresent(custom, forKey: .custom)
  }
}
