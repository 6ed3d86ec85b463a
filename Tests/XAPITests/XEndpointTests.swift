import Foundation
import NetworkClient
import TestSupport
import Testing
import XAPI

/// The rows of ``XEndpoint``, each X operation declared once, checked against X's own
/// specification (read here, not through the script that wrote the rows), against the price
/// list, and as the lookup ``XBilling`` makes of a request.
@Suite("XEndpoint: every X operation, declared once")
struct XEndpointTests {
  /// X's specification the rows are generated from (`.ci/x-endpoints`).
  static let specification = PackagePaths.root.appendingPathComponent("Tests/Specs/x-openapi-2.167.json")

  /// One operation as the specification declares it, in the rows' terms.
  struct Declared: Hashable, CustomStringConvertible {
    let method: String
    let path: String
    let authentications: Set<String>
    let pageSizes: String?
    var description: String { "\(method) \(path) \(authentications.sorted()) \(pageSizes ?? "-")" }
  }

  static func declaredBySpecification() throws -> (version: String, operations: [Declared]) {
    let spec = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: specification)) as? [String: Any])
    let version = try #require((spec["info"] as? [String: Any])?["version"] as? String)
    let parameters = (spec["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
    let paths = try #require(spec["paths"] as? [String: [String: Any]])
    var operations: [Declared] = []
    for (path, methods) in paths {
      for (method, value) in methods where ["get", "post", "put", "delete", "patch"].contains(method) {
        let operation = try #require(value as? [String: Any])
        var authentications: Set<String> = []
        for requirement in operation["security"] as? [[String: [String]]] ?? [] {
          for (scheme, scopes) in requirement {
            switch scheme {
            case "UserToken": authentications.insert(XEndpoint.Authentication.oauth1User.description)
            case "OAuth2UserToken": authentications.insert(XEndpoint.Authentication.oauth2User(scopes: scopes.sorted()).description)
            case "BearerToken": authentications.insert(XEndpoint.Authentication.appOnly.description)
            default: Issue.record("\(method) \(path): a security scheme the rows do not know: \(scheme)")
            }
          }
        }
        var pageSizes: String?
        for case var parameter as [String: Any] in operation["parameters"] as? [Any] ?? [] {
          if let reference = parameter["$ref"] as? String, let resolved = parameters[String(reference.split(separator: "/").last ?? "")] {
            parameter = resolved
          }
          guard parameter["name"] as? String == "max_results", parameter["in"] as? String == "query" else { continue }
          let schema = parameter["schema"] as? [String: Any] ?? [:]
          pageSizes = "\(schema["minimum"] as? Int ?? 1)...\(schema["maximum"] as? Int ?? -1)"
        }
        operations.append(Declared(method: method.uppercased(), path: path, authentications: authentications, pageSizes: pageSizes))
      }
    }
    return (version, operations)
  }

  static func declared(_ row: XEndpoint) -> Declared {
    Declared(
      method: row.method.rawValue, path: row.path, authentications: Set(row.authentications.map(\.description)),
      pageSizes: row.pageSizes.map { "\($0.lowerBound)...\($0.upperBound)" })
  }

  @Test("Every operation of X's specification has its row, every row its operation: same method, path, authentications, page sizes")
  func everyOperationOfTheSpecificationHasItsRow() throws {
    let (version, operations) = try Self.declaredBySpecification()
    #expect(version == XEndpoint.specificationVersion)
    #expect(operations.count == 178, "X's specification 2.167 has 178 operations")
    let rows = XEndpoint.specified.map(Self.declared)
    #expect(Set(rows).count == rows.count, "two rows declare the same operation")
    let missing = Set(operations).subtracting(rows).sorted { $0.description < $1.description }
    let extra = Set(rows).subtracting(operations).sorted { $0.description < $1.description }
    #expect(missing.isEmpty, "the specification has, and no row declares (run .ci/x-endpoints): \(missing)")
    #expect(extra.isEmpty, "rows the specification does not declare so: \(extra)")
    // Rows outside the specification must really be outside it.
    let specified = Set(operations.map { "\($0.method) \($0.path)" })
    for row in XEndpoint.classic {
      #expect(!row.inSpecification && !specified.contains("\(row.method) \(row.path)"), "\(row) is in the specification")
    }
    #expect(XEndpoint.specified.filter { !$0.inSpecification }.isEmpty)
  }

  @Test("Every row is priced from the price list, or says why it is free or unpriced")
  func everyRowHasAPriceOrAReason() {
    let pricing = XPricing.published
    for row in XEndpoint.all {
      switch row.charge {
      case .free(let reason), .unpriced(let reason):
        #expect(!reason.isEmpty, "\(row)")
      case .resources(let kind, _, let count):
        #expect(pricing.reads[kind] != nil, "\(row): \(kind) has no price")
        #expect(row.method == .get, "\(row): only a read is billed per resource")
        if case .page(let largest) = count, let sizes = row.pageSizes { #expect(largest == sizes.upperBound, "\(row)") }
      case .streamed(let kind):
        #expect(pricing.reads[kind] != nil, "\(row): \(kind) has no price")
      case .request(let kind):
        #expect(pricing.requests[kind] != nil, "\(row): \(kind) has no price")
      case .postCreate:
        #expect(pricing.requests[.postCreate] != nil && pricing.requests[.postCreateWithURL] != nil)
      }
    }
  }

  @Test("XBilling classifies a request by its row: every row, its path filled, gives the row's charge")
  func billingIsALookupOfTheRows() {
    for row in XEndpoint.all {
      let values = row.path.split(separator: "/").filter { $0.contains("{") }.indices.map { "1\($0)" }
      let url = URL(string: "https://api.x.com/" + row.filled(values))!
      let matched = XEndpoint.match(row.method, path: url.path)
      #expect(matched?.endpoint == row, "\(row) matched \(matched.map { "\($0.endpoint)" } ?? "nothing")")
      let billing = XBilling.of(HTTPRequest(method: row.method, url: url, body: Data(#"{"text":"hello"}"#.utf8)), ownerUserID: "10")
      switch row.charge {
      case .free, .streamed: #expect(billing == .free, "\(row)")
      case .unpriced: #expect(billing == .unpriced, "\(row)")
      case .request(let kind): #expect(billing == .perRequest(kind), "\(row)")
      case .postCreate: #expect(billing == .perRequest(.postCreate), "\(row)")
      case .resources(let kind, let ownable, let count):
        let atMost: Int
        switch count {
        case .one: atMost = 1
        case .page(let largest): atMost = largest
        case .listed(_, let otherwise): atMost = otherwise
        }
        #expect(billing == .perResource(kind, owned: ownable, atMost: atMost), "\(row)")
      }
    }
  }

  @Test("A path's value stays one segment; the most specific template wins; a base URL's prefix and v1.1's .json are ignored")
  func pathsAreFilledAndMatched() {
    #expect(XEndpoint.getUsersPosts.filled("42") == "2/users/42/tweets")
    #expect(XEndpoint.getUsersByUsername.filled("a/b c") == "2/users/by/username/a%2Fb%20c")
    #expect(XEndpoint.v1StatusesDestroy.filled("5") == "1.1/statuses/destroy/5.json")
    #expect(XEndpoint.match(.get, path: "/2/users/me")?.endpoint == .getUsersMe)
    #expect(XEndpoint.match(.get, path: "/2/users/by")?.endpoint == .getUsersByUsernames)
    #expect(XEndpoint.match(.get, path: "/2/users/7")?.endpoint == .getUsersById)
    #expect(XEndpoint.match(.delete, path: "/2/connections/all")?.endpoint == .deleteAllConnections)
    #expect(XEndpoint.match(.get, path: "/x/api/2/users/7/tweets")?.captures == ["7"])
    #expect(XEndpoint.match(.get, path: "/1.1/statuses/user_timeline")?.endpoint == .v1UserTimeline)
    #expect(XEndpoint.match(.get, path: "/1.1/statuses/user_timeline.json")?.endpoint == .v1UserTimeline)
    #expect(XEndpoint.match(.patch, path: "/2/users/me") == nil && XEndpoint.match(.get, path: "/2/nothing/here") == nil)
  }

  @Test("Enterprise-only: likes and follows writes, quote-posts; never a read")
  func enterpriseOnlyRows() {
    let enterprise = XEndpoint.all.filter { if case .enterprise = $0.access { true } else { false } }
    #expect(Set(enterprise) == [.likePost, .unlikePost, .followUser, .unfollowUser], "\(enterprise)")
    guard case .enterpriseWith("quote_tweet_id", _) = XEndpoint.createPosts.access else {
      Issue.record("creating a post quoting another is Enterprise-only")
      return
    }
  }

  @Test("The typed methods page within their row's sizes")
  func typedMethodsUseTheirRows() {
    #expect(XEndpoint.getUsersPosts.pageSizes == 5...100)
    #expect(XEndpoint.searchPostsAll.pageSizes == 10...500)
    #expect(XEndpoint.getUsersFollowers.pageSizes == 1...1000)
    #expect(XEndpoint.getUsersLikedPosts.pageSizes == 5...100)
  }
}

/// The generated rows against their script: the file `.ci/x-endpoints` writes from the
/// specification and its tables (prices, Enterprise marks) is the one checked in, so an edit
/// of the Swift file by hand, or of the script without running it, fails here.
@Suite("XEndpoint: the generated rows are the script's", .tags(.processes), .tier(.processes))
struct XEndpointGenerationTests {
  @Test("`.ci/x-endpoints --check` finds the checked-in rows as it writes them")
  func theRowsAreTheScripts() async throws {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", PackagePaths.root.appendingPathComponent(".ci/x-endpoints").path, "--check"], timeout: 120)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
