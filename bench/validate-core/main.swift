// bench/validate's in-process view (issue 19): `WorkflowLoader.load` of a file beside libyaml
// parsing the same file to events (Yams' CYaml, the floor), both timed in this one process, so
// the figures hold no start-up and callgrind can count either alone.
//
//   BenchValidate FILE [ROUNDS] [floor|load|kept|both]
//
// `kept` loads once and keeps the result, as `flow validate` does until it exits (nothing freed).
//
// Prints each one's median wall time over ROUNDS (default 9) and the ratio load / floor.
import CYaml
import FlowDSL
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: BenchValidate FILE [ROUNDS] [floor|load|both]\n".utf8))
    exit(2)
}
let path = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 9 : 9
let mode = arguments.count > 3 ? arguments[3] : "both"

/// libyaml alone: the file read whole, parsed to events, nothing kept (bench/yaml-floor's work).
func floor() -> Int {
    guard let data = FileManager.default.contents(atPath: path) else { exit(2) }
    let bytes = [UInt8](data)
    var parser = yaml_parser_t()
    var event = yaml_event_t()
    var events = 0
    yaml_parser_initialize(&parser)
    defer { yaml_parser_delete(&parser) }
    return bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        while yaml_parser_parse(&parser, &event) == 1 {
            events += 1
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if done { break }
        }
        return events
    }
}

/// What `flow validate` does beyond start-up: read, parse and check the file.
func load() -> Int {
    let result = WorkflowLoader.load(path: path)
    return result.diagnostics.count
}

/// A loaded result held until the process exits.
final class Kept: Sendable {
    let result: CheckResult
    init(_ result: CheckResult) { self.result = result }
}

func median(_ work: () -> Int) -> Double {
    var times: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = work()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()[times.count / 2]
}

switch mode {
case "floor":
    print("floor events: \(floor())")
case "load":
    print("diagnostics: \(load())")
case "kept":
    let result = WorkflowLoader.load(path: path)
    print("diagnostics: \(result.diagnostics.count)")
    _ = Unmanaged.passRetained(Kept(result))
default:
    let floorTime = median(floor)
    let loadTime = median(load)
    print(
        String(
            format: "floor %.2f ms  load %.2f ms  load/floor %.1fx  (diagnostics: %d)", floorTime, loadTime,
            loadTime / floorTime, load()))
}
