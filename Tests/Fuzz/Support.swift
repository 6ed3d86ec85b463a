// Compiled with every fuzz target. `precondition` drops its message in optimized builds;
// a failed property must say what failed, so the targets check with `require`.

/// Stops the run with `message` when `condition` is false.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError("fuzz property failed: \(message())") }
}
