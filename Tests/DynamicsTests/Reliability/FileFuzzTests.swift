import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Issue 29: files must not attack the reader. Snapshot archives and traces with forged counts,
/// damaged bytes and absurd positions are read, and what the reader sets aside is measured
/// against the size of what it was given.
///
/// How it is measured, deterministically and apart from the tests running beside it:
/// - Snapshots: ``ReadAllocationMeter`` counts every reservation the readers make for a table
///   whose length comes from the file (the world's slots and lists, the animator's item slots,
///   the state tapes), in bytes of the records reserved. Decoding the JSON itself allocates in
///   proportion to the JSON, which is the input.
/// - Traces: `TraceReader.heldBytes`, the capacity of everything the reader keeps from frame to
///   frame (buffer, index, scene, tables), read after every frame.
@Suite("File fuzzing: allocation stays within a bound of the input")
struct FileFuzzTests {
    /// The most a snapshot reader may reserve per byte of the archive, plus a fixed allowance.
    /// A forged slot count is checked against the bytes left, but each slot of input (5 bytes
    /// for a free contact with its free-list entry, 9 for a body) becomes an engine record of a
    /// few hundred bytes; the archive is JSON, at least 4/3 of the binary world. The measured
    /// worst case is printed; the bound is what may not be passed.
    static let snapshotBytesPerInputByte = 64
    static let snapshotAllowance = 1 << 20

    static func json(_ s: DynamicsSnapshot) throws -> Data { try JSONEncoder().encode(s) }

    /// Decodes `data` and restores it into `animator`, metered; returns the bytes reserved.
    static func meteredRestore(_ data: Data, into animator: DynamicAnimator) -> (bytes: Int, restored: Bool) {
        let meter = ReadAllocationMeter()
        var restored = false
        ReadAllocationMeter.$current.withValue(meter) {
            guard let snapshot = try? JSONDecoder().decode(DynamicsSnapshot.self, from: data) else { return }
            restored = (try? animator.restore(snapshot)) != nil
        }
        return (meter.bytes, restored)
    }

    /// The forged word of the issue: the animator's item slot count set to 2³¹ − 1, checksum
    /// recomputed. Before, `restore` made a table of that many slots (2.1 GB) before refusing.
    @Test func aForgedItemSlotCountIsRefusedBeforeAllocating() throws {
        let scene = BusyScene(validating: false)
        _ = scene.run(frames: 30)
        var forged = scene.animator.snapshot()
        // stepDuration, substeps, elapsedTime, accumulator, running, frameIndex, needsSync,
        // wakeAllOnSync, groundBody (index, generation), then the item slot count.
        #expect(forged.animatorState[10] == Double(scene.animator.snapshot().itemCount).bitPattern
                || Double(bitPattern: forged.animatorState[10]) >= 1)
        forged.animatorState[10] = Double(Int32.max).bitPattern
        forged.checksum = forged.computedChecksum
        let data = try Self.json(forged)
        let before = scene.animator.snapshot()
        let (bytes, restored) = Self.meteredRestore(data, into: scene.animator)
        #expect(!restored)
        #expect(scene.animator.snapshot() == before)
        #expect(bytes < 4 * data.count, "reserved \(bytes) bytes for a \(data.count)-byte archive")
        // The wording names the check that refused it: the slot count's, before any allocation.
        if case .snapshotRefused(.corrupt(let why))? = scene.animator.diagnostics.last?.kind {
            #expect(why.contains("not a whole number in 0…"))
        } else {
            Issue.record("expected a corrupt snapshot, got \(String(describing: scene.animator.diagnostics.last))")
        }
    }

    /// Forged counts and damaged words anywhere in the world's bytes and the state tapes: every
    /// archive is refused or restored, and never makes the reader reserve more than
    /// `snapshotBytesPerInputByte` per byte of it.
    @Test func snapshotArchivesStayWithinTheBound() throws {
        let scene = BusyScene(validating: false)
        _ = scene.run(frames: 60)
        let good = scene.animator.snapshot()
        var g = SplitMix64Generator(seed: 29)
        let bigNumbers: [UInt32] = [0x7FFF_FFFF, 0xFFFF_FFFF, 0x0100_0000, 0x0001_0000, 9_999_999]
        var worst = 0.0
        var refused = 0
        for round in 0 ..< 240 {
            var s = good
            switch round % 3 {
            case 0:   // a 32-bit word of the world (counts are 32-bit) made large
                var bytes = s.world.bytes
                let at = 8 + Int(g.next() % UInt64(bytes.count - 12))
                let value = bigNumbers[Int(g.next() % UInt64(bigNumbers.count))]
                for k in 0 ..< 4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
                s.world = WorldSnapshot(bytes: bytes)
            case 1:   // a value of the animator's tape made a large whole number
                let at = Int(g.next() % UInt64(s.animatorState.count))
                s.animatorState[at] = Double(bigNumbers[Int(g.next() % UInt64(bigNumbers.count))]).bitPattern
            default:  // a value of a behaviour's tape
                let k = Int(g.next() % UInt64(s.behaviorStates.count))
                guard !s.behaviorStates[k].isEmpty else { continue }
                let at = Int(g.next() % UInt64(s.behaviorStates[k].count))
                s.behaviorStates[k][at] = Double(bigNumbers[Int(g.next() % UInt64(bigNumbers.count))]).bitPattern
            }
            s.checksum = s.computedChecksum
            let data = try Self.json(s)
            let (bytes, restored) = Self.meteredRestore(data, into: scene.animator)
            if !restored { refused += 1 }
            worst = max(worst, Double(bytes) / Double(data.count))
            #expect(bytes <= Self.snapshotBytesPerInputByte * data.count + Self.snapshotAllowance,
                    "round \(round): reserved \(bytes) bytes for a \(data.count)-byte archive")
            try scene.animator.restore(good)
        }
        #expect(refused > 100)
        // The smallest world that lists the most slots: every slot free (flag, generation and a
        // free-list entry each), for each pool — the reader's worst honest case.
        let slots = 20_000
        var w = ByteWriterForTests()
        w.bytes += SnapshotFormat.magicForTests + [1, 0, 0, 0]
        w.bytes += [UInt8](repeating: 0, count: 8 + 8 + 4 + 1 + 8)
        for hasGeneration in [true, true, false, true] {
            w.u32(UInt32(slots))
            for _ in 0 ..< slots { w.bytes.append(0); if hasGeneration { w.u32(1) } }
            w.u32(UInt32(slots))
            for k in 0 ..< slots { w.u32(UInt32(k)) }
        }
        for _ in 0 ..< 4 { w.u32(0) }   // awake bodies, islands, free islands, moved proxies
        let world = WorldSnapshot(bytes: w.bytes)
        let meter = ReadAllocationMeter()
        let restoredWorld = World()
        try ReadAllocationMeter.$current.withValue(meter) { try restoredWorld.restore(world) }
        let ratio = Double(meter.bytes) / Double(w.bytes.count)
        #expect(meter.bytes <= Self.snapshotBytesPerInputByte * w.bytes.count,
                "free slots: \(meter.bytes) bytes reserved for \(w.bytes.count) bytes (\(ratio) a byte)")
        print("snapshot fuzz: worst \(String(format: "%.2f", worst)) bytes reserved per archive byte; "
              + "a world of free slots only: \(String(format: "%.1f", ratio)) per byte of world")
    }

    /// Damaged and forged traces: what the reader holds never passes a fixed budget (its buffer,
    /// its capped index) plus a small multiple of the input.
    @Test func traceFilesStayWithinTheBound() {
        let scene = UIKitScenes.named("chain")!.make()
        let writer = CSVFrameWriter()
        writer.record(scene.animator)
        for k in 0 ..< 12 { scene.step(frame: k) }
        let csv = Array(writer.text.utf8), sceneFile = Array(writer.sceneText.utf8)
        let forgedLines = [
            #"{"frame":0,"item":9999999,"key":"far","parts":[{"shape":"ellipse","size":[20,20]}]}"#,
            #"{"frame":0,"item":4,"key":"next","parts":[]}"#,
            #"{"frame":99999999999,"boundaries":[{"points":[[0,0],[1,1]]}]}"#,
            #"{"frame":1,"attachments":[{"items":[{"item":9999999},{"item":0}]}]}"#,
        ]
        var g = SplitMix64Generator(seed: 2929)
        var worst = 0
        for round in 0 ..< 120 {
            var c = TraceFuzzTests.mutate(csv, &g)
            var s = round % 2 == 0 ? TraceFuzzTests.mutate(sceneFile, &g) : sceneFile
            s += Array((forgedLines[round % forgedLines.count] + "\n").utf8)
            if round % 5 == 0 { c += Array(repeating: UInt8(ascii: "7"), count: 1 << 20 + 10) }   // one line past the limit
            let reader = TraceReader(text: String(decoding: c, as: UTF8.self), sceneText: String(decoding: s, as: UTF8.self))
            var held = reader.heldBytes
            var rows = 0
            while let frame = reader.nextFrame() {
                rows += frame.report.items.count
                held = max(held, reader.heldBytes)
                if frame.position > 10_000 { break }
            }
            let lines = c.count { $0 == UInt8(ascii: "\n") } + 1
            #expect(rows <= lines)
            worst = max(worst, held - 2 * (c.count + s.count))
            #expect(held <= 2 * CSVRecordStream.chunkSize + 64 * 1024 + 8 * (c.count + s.count), "round \(round): held \(held) bytes")
        }
        print("trace fuzz: held at most \(worst) bytes beyond twice the input")
    }
}

/// A little-endian byte writer for hand-made world snapshots.
struct ByteWriterForTests {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) { for k in 0 ..< 4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) } }
}

extension SnapshotFormat {
    /// "SDWS".
    static let magicForTests: [UInt8] = [0x53, 0x44, 0x57, 0x53]
}
