/// What a `ContentItemSelectionRequest` launch asks for (Content-Item Message 1.0): the platform
/// wants the user to pick content in the tool and have it sent back to ``returnURL``.
///
/// ```swift
/// if let request = launch.contentItemRequest {
///   let form = try LTIContentItemSelection(items: [item], data: request.data)
///     .signedForm(returnURL: request.returnURL, consumer: credentials)
/// }
/// ```
public struct LTIContentItemRequest: Sendable, Hashable, Codable {
  /// `content_item_return_url`: where the signed selection is posted.
  public var returnURL: String
  /// `accept_media_types`: what the platform takes (`application/vnd.ims.lti.v1.ltilink`, `image/*`…).
  public var acceptMediaTypes: [String]
  /// `accept_presentation_document_targets`: `iframe`, `window`, `embed`…
  public var acceptPresentationDocumentTargets: [String]
  /// `accept_multiple`: whether several items may be returned.
  public var acceptMultiple: Bool
  /// `accept_unsigned`: whether an unsigned answer is accepted (this library always signs).
  public var acceptUnsigned: Bool
  /// `auto_create`: whether the platform creates the items without asking the user again.
  public var autoCreate: Bool
  /// `data`: opaque; must be returned unchanged with the selection.
  public var data: String?
  /// `title`: a default title for the item.
  public var title: String?
  /// `text`: a default text for the item.
  public var text: String?
}
