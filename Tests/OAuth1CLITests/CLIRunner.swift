import Foundation
import TestSupport

/// Runs the built `oauth1` executable as a real process.
func oauth1(_ arguments: [String], environment: [String: String]? = nil) async throws -> ProcessResult {
  try await ProcessRunner.run(PackagePaths.executable("oauth1"), arguments, environment: environment, timeout: 60)
}

/// The JSON object `oauth1 sign --json` prints.
func signJSON(_ arguments: [String]) async throws -> [String: Any] {
  let result = try await oauth1(["sign", "--json"] + arguments)
  guard result.status == 0 else {
    throw CLIFailure(description: "oauth1 sign exited \(result.status): \(result.stderr)")
  }
  guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
    throw CLIFailure(description: "not a JSON object: \(result.stdout)")
  }
  return object
}

/// The JSON the fake provider's `/api/...` echoes for a request `oauth1 request` made and it verified.
func echo(_ result: ProcessResult) throws -> [String: Any] {
  guard result.status == 0 else { throw CLIFailure(description: "oauth1 request exited \(result.status): \(result.stderr)") }
  guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
    throw CLIFailure(description: "not the provider's echo: \(result.stdout)")
  }
  return object
}

struct CLIFailure: Error, CustomStringConvertible {
  let description: String
}

/// A file in a fresh temporary folder, removed by the caller.
func temporaryFile(named name: String, contents: Data) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oauth1-cli-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let file = folder.appendingPathComponent(name)
  try contents.write(to: file)
  return file
}
