import LTI
import Testing

/// The LTI 1.3 migration claim against the example of the 1EdTech migration guide
/// (imsglobal.org/spec/lti/v1p3/migr, "LTI 1.1 migration claim"), as Sakai's and Canvas's own
/// tests reproduce it: key 179248902, secret my-lti11-secret, deployment 689302, issuer
/// https://lmsvendor.com, client PM48OJSfGDTAzAo, exp 1551290856, nonce 172we8671fd8z.
@Suite struct MigrationClaimTests {
  static let published = "lWd54kFo5qU7xshAna6v8BwoBm6tmUjc6GTax6+12ps="

  @Test func theGuidesExampleSignatureIsReproduced() throws {
    let signature = try LTIMigrationClaim.signature(
      consumerKey: "179248902", secret: "my-lti11-secret", deploymentID: "689302", issuer: "https://lmsvendor.com",
      clientID: "PM48OJSfGDTAzAo", expiration: 1_551_290_856, nonce: "172we8671fd8z")
    #expect(signature == Self.published)
  }

  @Test func theGuidesExampleClaimIsValidAndAnyChangeIsNot() {
    let claim = LTIMigrationClaim(consumerKey: "179248902", signature: Self.published, userID: "34212")
    #expect(
      claim.isValid(
        secret: "my-lti11-secret", deploymentID: "689302", issuer: "https://lmsvendor.com", clientID: "PM48OJSfGDTAzAo",
        expiration: 1_551_290_856, nonce: "172we8671fd8z"))
    #expect(
      !claim.isValid(
        secret: "another-secret", deploymentID: "689302", issuer: "https://lmsvendor.com", clientID: "PM48OJSfGDTAzAo",
        expiration: 1_551_290_856, nonce: "172we8671fd8z"))
    #expect(
      !claim.isValid(
        secret: "my-lti11-secret", deploymentID: "689303", issuer: "https://lmsvendor.com", clientID: "PM48OJSfGDTAzAo",
        expiration: 1_551_290_856, nonce: "172we8671fd8z"))
    #expect(
      !claim.isValid(
        secret: "my-lti11-secret", deploymentID: "689302", issuer: "https://lmsvendor.com", clientID: "PM48OJSfGDTAzAo",
        expiration: 1_551_290_857, nonce: "172we8671fd8z"))
    let forged = LTIMigrationClaim(consumerKey: "179248903", signature: Self.published)
    #expect(
      !forged.isValid(
        secret: "my-lti11-secret", deploymentID: "689302", issuer: "https://lmsvendor.com", clientID: "PM48OJSfGDTAzAo",
        expiration: 1_551_290_856, nonce: "172we8671fd8z"))
  }
}
