import Foundation

/// Where the package's own files are, found from this source file so that tests work from
/// any working directory.
public enum PackagePaths {
  /// The package root (the folder that holds Package.swift).
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// `Vectors/`, the published test vectors.
  public static let vectors = root.appendingPathComponent("Vectors")

  /// `.test-deps/`, the ignored folder where tests install their pinned peers.
  public static let testDependencies = root.appendingPathComponent(".test-deps")

  /// Scripts the tests run with Python.
  public static let peers = root.appendingPathComponent("Tests/Peers")

  /// The folder of the built products (`.build/debug` or wherever SwiftPM put this build),
  /// found next to the running test bundle.
  public static var products: URL {
    var candidate = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    for _ in 0..<6 {
      candidate = candidate.deletingLastPathComponent()
      if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("oauth1").path) { return candidate }
    }
    return root.appendingPathComponent(".build/debug")
  }

  /// A built executable, such as `oauth1`.
  public static func executable(_ name: String) -> URL {
    products.appendingPathComponent(name)
  }
}
