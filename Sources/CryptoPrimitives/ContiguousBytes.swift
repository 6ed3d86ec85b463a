/// Runs `body` on contiguous bytes, copying only when `bytes` is not contiguous already. The
/// buffer is valid only during `body`.
func withContiguousBytes<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
  return Array(bytes).withUnsafeBufferPointer(body)
}
