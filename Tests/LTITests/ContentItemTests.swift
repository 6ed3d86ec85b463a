import Foundation
import LTI
import OAuth1
import Testing

@Suite struct ContentItemTests {
  @Test func aSelectionRequestIsReadAndAnsweredWithASignedForm() async throws {
    var request = LTILaunchParameters(resourceLinkID: "unused")
    request.messageType = .contentItemSelectionRequest
    request.extra = [
      (name: "content_item_return_url", value: "https://lms.example.edu/ci/return"),
      (name: "accept_media_types", value: "application/vnd.ims.lti.v1.ltilink"),
      (name: "accept_presentation_document_targets", value: "iframe,window"), (name: "accept_multiple", value: "false"),
      (name: "data", value: "opaque <state> & more"),
    ]
    let launch = try await LaunchTests.verifier().verify(method: "POST", url: LaunchTests.url, body: try LaunchTests.signed(request.parameters))
    let asked = try #require(launch.contentItemRequest)
    #expect(asked.returnURL == "https://lms.example.edu/ci/return" && asked.acceptMediaTypes == ["application/vnd.ims.lti.v1.ltilink"])
    #expect(asked.acceptPresentationDocumentTargets == ["iframe", "window"] && !asked.acceptMultiple)

    let selection = LTIContentItemSelection(items: [.ltiLink(url: "https://tool.example.edu/launch?quiz=7", title: "Quiz \"7\"")], data: asked.data)
    let form = try selection.signedForm(returnURL: asked.returnURL, consumer: LaunchTests.credentials)
    // The platform verifies the answer as it verifies any signed form.
    let verifier = OAuthVerifier(credentials: InMemoryCredentialLookup(consumers: ["lms-key": OAuthConsumer(secret: "lms-secret")]))
    let verified = try await verifier.verify(
      OAuthRequest(method: "POST", url: asked.returnURL, body: form.body, contentType: "application/x-www-form-urlencoded"), authorization: nil)
    let fields = Dictionary(verified.parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    #expect(fields["lti_message_type"] == "ContentItemSelection" && fields["data"] == "opaque <state> & more")
    let contentItems = try #require(fields["content_items"])
    let graph = try #require(JSONSerialization.jsonObject(with: Data(contentItems.utf8)) as? [String: Any])
    #expect(graph["@context"] as? String == "http://purl.imsglobal.org/ctx/lti/v1/ContentItem")
    let item = try #require((graph["@graph"] as? [[String: Any]])?.first)
    #expect(item["@type"] as? String == "LtiLinkItem" && item["url"] as? String == "https://tool.example.edu/launch?quiz=7")
    // The page escapes every value and posts itself.
    #expect(form.html.contains("action=\"https://lms.example.edu/ci/return\"") && form.html.contains("document.forms[0].submit()"))
    #expect(form.html.contains("opaque &lt;state&gt; &amp; more") && !form.html.contains("<state>"))
  }
}
