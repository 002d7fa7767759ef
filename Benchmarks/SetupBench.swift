import DynamicsScenes
import Foundation

// `bench --setup`: the setup-cost scenes (Benchmarks/README.md, "Setup scenes") at n = 1 000,
// 10 000 and 100 000 (`--smoke`: 1 000 only). For each phase: the total time and the time per
// operation, which stays flat (or grows like log n) when building and taking apart a world of n
// things costs O(n log n) at worst. On Linux also the peak resident memory of each run (the
// process's high-water mark, reset before the run through /proc/self/clear_refs).

/// Resets the process's peak resident set size (Linux); false where that is not possible.
func resetPeakMemory() -> Bool {
    #if os(Linux)
    guard let h = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? h.close() }
    return (try? h.write(contentsOf: Data("5".utf8))) != nil
    #else
    return false
    #endif
}

/// The process's peak resident set size since the last reset, in bytes (Linux), or nil.
func peakMemory() -> Int? {
    #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter(\.isNumber)
        return Int(digits).map { $0 * 1024 }
    }
    #endif
    return nil
}

/// `scenes` (names; empty: all) at n = 1 000, 10 000, 100 000, or 1 000 only for `smoke`, or the
/// comma-separated sizes of the environment variable `BENCH_SETUP_SIZES` when set.
func runSetupBench(scenes: [String], smoke: Bool, json: Bool) {
    var sizes = smoke ? [1_000] : [1_000, 10_000, 100_000]
    if let text = ProcessInfo.processInfo.environment["BENCH_SETUP_SIZES"] {
        let parsed = text.split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1 && $0 <= 10_000_000 }
        if !parsed.isEmpty { sizes = parsed }
    }
    if !json {
        print("scene                 n        phase            total ms        µs/op   peak MB   notes")
    }
    for name in scenes where !SetupScenes.all.contains(where: { $0.name == name }) {
        fail("unknown setup scene \(name) (setup scenes: \(SetupScenes.all.map(\.name).joined(separator: ", ")))")
    }
    for scene in SetupScenes.all where scenes.isEmpty || scenes.contains(scene.name) {
        for n in scene.isFixed ? [sizes[0]] : sizes {
            let canMeasure = resetPeakMemory()
            let result = scene.run(n)
            let peak = canMeasure ? peakMemory() : nil
            let peakMB = peak.map { Double($0) / 1_048_576 }
            for (k, p) in result.phases.enumerated() {
                let perOp = 1e6 * p.seconds / Double(max(1, p.operations))
                if json {
                    let mem = peakMB.map { ",\"peak_mb\":\($0)" } ?? ""
                    let notes = k == 0 && !result.notes.isEmpty
                        ? ",\"notes\":[" + result.notes.map { "\"\($0)\"" }.joined(separator: ",") + "]" : ""
                    print("{\"scene\":\"\(result.scene)\",\"n\":\(result.n),\"phase\":\"\(p.name)\",\"operations\":\(p.operations),"
                          + "\"ms\":\(1000 * p.seconds),\"us_per_op\":\(perOp)\(k == 0 ? mem : "")\(notes)}")
                } else {
                    func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }
                    func lpad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
                    let mem: String = k == 0 ? (peakMB.map { String(format: "%.0f", $0) } ?? "–") : ""
                    let notes: String = k == 0 ? result.notes.joined(separator: "; ") : ""
                    var line = pad(result.scene, 20) + lpad("\(result.n)", 8) + "   " + pad(p.name, 14)
                    line += lpad(String(format: "%.2f", 1000 * p.seconds), 12) + lpad(String(format: "%.3f", perOp), 13)
                    line += lpad(mem, 10) + "   " + notes
                    print(line)
                }
            }
        }
    }
}
