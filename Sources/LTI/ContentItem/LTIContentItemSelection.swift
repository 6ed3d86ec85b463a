import Foundation
import OAuth1

/// A tool's answer to a `ContentItemSelectionRequest`: the chosen items, as the signed form
/// (`lti_message_type=ContentItemSelection`, `content_items` JSON-LD, the request's `data`
/// unchanged) that the user's browser posts back to the platform's `content_item_return_url`.
///
/// ```swift
/// guard let request = launch.contentItemRequest else { return }
/// let selection = LTIContentItemSelection(items: [.ltiLink(url: quizURL, title: "Quiz 7")], data: request.data)
/// let form = try selection.signedForm(returnURL: request.returnURL, consumer: credentials)
/// response.body = Data(form.html.utf8)  // posts itself back to the platform
/// ```
public struct LTIContentItemSelection: Sendable, Hashable {
  /// The items chosen; none to say the user cancelled.
  public var items: [LTIContentItem]
  /// The request's `data`, returned unchanged.
  public var data: String?
  /// `lti_msg`: a message the platform shows the user, if any.
  public var message: String?

  /// A selection of `items` answering a request whose `data` was `data`.
  public init(items: [LTIContentItem], data: String?, message: String? = nil) {
    self.items = items
    self.data = data
    self.message = message
  }

  /// The `content_items` JSON-LD graph.
  public var contentItems: String {
    struct Graph: Encodable {
      let context = "http://purl.imsglobal.org/ctx/lti/v1/ContentItem"
      let graph: [LTIContentItem]
      enum CodingKeys: String, CodingKey {
        case context = "@context"
        case graph = "@graph"
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = (try? encoder.encode(Graph(graph: items))) ?? Data("{}".utf8)
    return String(decoding: json, as: UTF8.self)
  }

  /// The form fields, without the `oauth_*` ones the signature adds.
  public var parameters: [OAuthParameter] {
    var fields = [
      OAuthParameter("lti_message_type", "ContentItemSelection"), OAuthParameter("lti_version", "LTI-1p0"),
      OAuthParameter("content_items", contentItems),
    ]
    if let data { fields.append(OAuthParameter("data", data)) }
    if let message { fields.append(OAuthParameter("lti_msg", message)) }
    return fields
  }

  /// The selection signed for `returnURL` with the launch's consumer credentials.
  public func signedForm(
    returnURL: String, consumer: Credentials, signatureMethod: OAuthSignatureMethod = .hmacSHA1
  ) throws(LTIError) -> LTISignedForm {
    try LTISignedForm.sign(url: returnURL, parameters: parameters, consumer: consumer, signatureMethod: signatureMethod)
  }
}
