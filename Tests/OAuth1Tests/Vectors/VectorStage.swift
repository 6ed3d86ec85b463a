import OAuth1
import TestSupport

/// The signing stages the vector files name, in pipeline order.
enum VectorStage: String, CaseIterable, Sendable, CustomStringConvertible {
  case percentEncoding = "percent_encoding"
  case parameterCollection = "parameter_collection"
  case parameterNormalization = "parameter_normalization"
  case baseStringURI = "base_string_uri"
  case signatureBaseString = "signature_base_string"
  case signingKey = "signing_key"
  case signature = "signature"
  case base64 = "base64"
  case bodyHash = "body_hash"
  case authorizationHeader = "authorization_header"
  case parameterTransmission = "parameter_transmission"

  var description: String { rawValue }
}

/// What checking one vector at one stage found.
struct StageOutcome {
  /// Comparisons made against a published (or corrected) value.
  var comparisons = 0
  var failures: [String] = []
  /// Fields tested against the corrected value, with the reason the published one is wrong.
  var corrections: [String] = []

  mutating func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
    comparisons += 1
    if actual != expected { failures.append("\(what): expected \(expected), got \(actual)") }
  }

  mutating func fail(_ message: String) {
    comparisons += 1
    failures.append(message)
  }
}

/// Runs every stage check of every vector file once; the stage tests and the coverage
/// summary read from it.
struct VectorRun {
  struct Row {
    let file: String
    let vector: Vector
    let stage: VectorStage
    let outcome: StageOutcome
  }

  let files: [VectorFile]
  let rows: [Row]

  static let shared: Result<VectorRun, any Error> = Result {
    let files = try VectorFile.loadAll()
    var rows: [Row] = []
    for file in files {
      for vector in file.vectors {
        let checker = VectorChecker(vector: vector)
        for name in vector.stages {
          guard let stage = VectorStage(rawValue: name) else { continue }
          rows.append(Row(file: file.name, vector: vector, stage: stage, outcome: checker.check(stage)))
        }
      }
    }
    return VectorRun(files: files, rows: rows)
  }
}
