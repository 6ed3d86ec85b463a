import Foundation
import NetworkClient
import Testing
import XAPI

@testable import TweetsCore

/// Whose reads the ledger prices as owned reads (issue #42): the account an access token from
/// the environment names (X's tokens begin with its numeric id), the profile's, or none (then
/// the run says so).
@Suite("The ledger's account for owned reads")
struct LedgerOwnerTests {
  @Test func theAccountComesFromTheTokenInUseOrTheProfile() {
    let oauth1 = Profile(accessToken: "777-profile-token", accessTokenSecret: "s", userID: "1001")
    func owner(_ environment: [String: String], _ profile: Profile?, api: GlobalOptions.APIVersion = .v2, demo: String? = nil) -> String? {
      RunBudget.ownerUserID(environment: environment, profile: profile, api: api, demoToken: demo)
    }
    // A token from the environment, no login: its numeric prefix; never the profile's id,
    // which may be another account's.
    #expect(owner(["X_ACCESS_TOKEN": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"], nil) == "370773112")
    #expect(owner(["TWITTER_ACCESS_TOKEN": "42-abc"], oauth1) == "42")
    #expect(owner(["X_ACCESS_TOKEN": "no-id-in-it"], oauth1) == nil)
    // The profile's login looked the account up; failing that, its token names it.
    #expect(owner([:], oauth1) == "1001")
    #expect(owner([:], Profile(accessToken: "555-t", accessTokenSecret: "s")) == "555")
    #expect(owner([:], Profile(accessToken: "opaque", accessTokenSecret: "s")) == nil)
    // OAuth 2.0 (v2 requests): the id users/me gave at the login.
    var oauth2 = oauth1
    oauth2.oauth2 = OAuth2Credentials(clientID: "c", clientSecret: nil, token: BearerToken(accessToken: "bearer"))
    #expect(owner(["X_ACCESS_TOKEN": "42-abc"], oauth2) == "1001")
    #expect(owner(["X_ACCESS_TOKEN": "42-abc"], oauth2, api: .v1) == "42")
    // The sandbox's demo account, with nothing else.
    #expect(owner([:], nil, demo: "1001-sandbox-access-token") == "1001")
    #expect(owner([:], nil) == nil)
    let note = RunBudget.unknownOwnerNote(userID: "42", pricing: .published)
    #expect(note.contains("user 42") && note.contains("$0.001") && note.contains("tweets login"), "\(note)")
  }
}
