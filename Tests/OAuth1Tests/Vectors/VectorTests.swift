import OAuth1
import TestSupport
import Testing

/// Every stage of signing, checked against every published vector that covers it.
@Suite("Published vectors")
struct VectorTests {
  @Test("Stage matches its published vectors", arguments: VectorStage.allCases)
  func stage(_ stage: VectorStage) throws {
    let run = try VectorRun.shared.get()
    let rows = run.rows.filter { $0.stage == stage }
    for row in rows {
      for failure in row.outcome.failures {
        Issue.record("\(row.file) \(row.vector.id) [\(stage)]: \(failure)")
      }
    }
    let checked = rows.filter { $0.outcome.comparisons > 0 }
    print("[vectors] \(stage): \(checked.count) vectors checked, \(checked.map(\.outcome.comparisons).reduce(0, +)) comparisons")
    #expect(!checked.isEmpty, "no vector checked the \(stage) stage")
  }

  /// Each file yields checked vectors, and every vector names a stage that checks something:
  /// a vector whose stages compare nothing would be a silent gap.
  @Test("Every vector file and every vector is checked")
  func coverage() throws {
    let run = try VectorRun.shared.get()
    #expect(run.files.count >= 8, "Vectors/ should hold the eight published sources")
    for file in run.files {
      let rows = run.rows.filter { $0.file == file.name }
      let checked = Set(rows.filter { $0.outcome.comparisons > 0 }.map(\.vector.id))
      print("[vectors] \(file.name): \(checked.count) of \(file.vectors.count) vectors checked")
      #expect(!checked.isEmpty, "\(file.name) yielded no checked vector")
      for vector in file.vectors where !checked.contains(vector.id) {
        Issue.record("\(file.name) \(vector.id): none of its stages \(vector.stages) compared anything")
      }
    }
    let corrections = Set(run.rows.flatMap(\.outcome.corrections)).sorted()
    for correction in corrections {
      print("[vectors] corrected value used for \(correction)")
    }
  }
}
