import FlowDSL

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkflow(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = Suggestion.editDistance(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self), "abc")
    return 0
}
