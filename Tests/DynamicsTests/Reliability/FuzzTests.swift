import DynamicsEngine
import Foundation
import Testing

import Dynamics

/// Random operation sequences (see `Fuzzer`): no crash, the engine's validation walk passes after
/// every operation, nothing non-finite reaches an item or a frame report.
///
/// The default run is a few thousand operations over several seeds. A longer run:
///
///     DYNAMICS_FUZZ_ITERATIONS=200000 swift test --filter FuzzTests
///
/// (the operations are spread over the same seeds; `DYNAMICS_FUZZ_SEED=n` picks the first seed).
/// A failure prints its seed and operation number: re-run that seed to reproduce it exactly.
@Suite("Fuzzing", .serialized)
struct FuzzTests {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var totalOperations: Int { environment["DYNAMICS_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 4000 }
    static var firstSeed: UInt64 { environment["DYNAMICS_FUZZ_SEED"].flatMap(UInt64.init) ?? 1 }
    static let seedCount = 8

    @Test func randomOperationSequencesKeepEveryInvariant() {
        var operations = 0, callbackOperations = 0, steps = 0, restores = 0, diagnostics = 0
        let perSeed = max(1, Self.totalOperations / Self.seedCount)
        for k in 0..<UInt64(Self.seedCount) {
            let seed = Self.firstSeed &+ k
            if Self.environment["DYNAMICS_FUZZ_TRACE"] == "1" { FileHandle.standardError.write(Data("fuzz seed \(seed)\n".utf8)) }
            let fuzzer = Fuzzer(seed: seed)
            fuzzer.run(operations: perSeed)
            let log = fuzzer.log
            operations += log.operations
            callbackOperations += log.callbackOperations
            steps += log.steps
            restores += log.restores
            diagnostics += fuzzer.animators.reduce(0) { $0 + $1.diagnostics.count }
            #expect(log.failures.isEmpty, "seed \(seed): \(log.failures.joined(separator: "\n"))")
        }
        print("fuzz: \(operations) operations (\(callbackOperations) from inside callbacks), \(steps) steps, \(restores) snapshot restores, \(diagnostics) diagnostics over \(Self.seedCount) seeds from \(Self.firstSeed)")
    }

    /// One seed (DYNAMICS_FUZZ_SEED) for `DYNAMICS_FUZZ_ITERATIONS` operations: for reproducing a failure.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DYNAMICS_FUZZ_ONE"] == "1"))
    func oneSeed() {
        let fuzzer = Fuzzer(seed: Self.firstSeed)
        fuzzer.run(operations: Self.totalOperations)
        #expect(fuzzer.log.failures.isEmpty, "\(fuzzer.log.failures.joined(separator: "\n"))")
    }

    /// The same seed gives the same run: the CSV of every frame agrees byte for byte.
    @Test func aFuzzRunIsReproducibleFromItsSeed() {
        let a = Fuzzer(seed: 42), b = Fuzzer(seed: 42)
        a.run(operations: 400)
        b.run(operations: 400)
        #expect(a.log.steps > 50)
        #expect(a.csv.text.count > 1000)
        #expect(a.csv.text == b.csv.text)
        // The same messages and kinds. A kind names its item or behaviour by ObjectIdentifier, an
        // address that differs between runs (and may be reused within one), so it is left out.
        let (da, db) = (a.animators[0].diagnostics, b.animators[0].diagnostics)
        #expect(da.map(\.description) == db.map(\.description))
        #expect(Self.kindsWithoutIdentities(da) == Self.kindsWithoutIdentities(db))
    }

    /// Each diagnostic's kind as text, every `ObjectIdentifier(0x…)` in it replaced by `#`.
    static func kindsWithoutIdentities(_ diagnostics: [DynamicsDiagnostic]) -> [String] {
        let identifier = try! Regex("ObjectIdentifier\\(0x[0-9a-f]+\\)")
        return diagnostics.map { "\($0.kind)".replacing(identifier, with: "#") }
    }
}
