@testable import DynamicsEngine
import Foundation
import Synchronization
import Testing

/// The pool's own rules, seen from inside: every block of every stage runs exactly once, whether
/// the workers spin, park between stages or sit a step out.
@Suite struct WorkerPoolParkingTests {
    /// Stages separated by pauses longer than `parkAfter`, so the workers park before most of
    /// them and must be woken: no block is lost or run twice, and every stage returns.
    @Test func parkedWorkersMissNoBlock() {
        let pool = WorkerPool(threadCount: 3)
        let blocks = 48
        let runs = UnsafeMutablePointer<Int>.allocate(capacity: blocks)
        defer { runs.deallocate() }
        for step in 0..<12 {
            pool.beginStep()
            for stage in 0..<8 {
                runs.initialize(repeating: 0, count: blocks)
                pool.run(blocks: blocks) { b in runs[b] += 1 }   // a block is claimed once, so never raced
                let counts = (0..<blocks).map { runs[$0] }
                #expect(counts.allSatisfy { $0 == 1 }, "step \(step) stage \(stage): \(counts)")
                if stage % 2 == 1 { usleep(3_000) }   // ≫ parkAfter (300 µs): the workers park
            }
            pool.endStep()
        }
    }

    /// `forEachChunk` covers `0..<count` once, in ranges that do not overlap, with chunk numbers
    /// below `maximumChunks`, on every kind of step the pool chooses (with workers, or the caller
    /// alone after timing both).
    @Test func chunksCoverTheRangeOnceOnEveryKindOfStep() {
        let pool = WorkerPool(threadCount: 2)
        let count = 1000
        let seen = UnsafeMutablePointer<Int>.allocate(capacity: count)
        let chunkOf = UnsafeMutablePointer<Int>.allocate(capacity: count)
        defer { seen.deallocate(); chunkOf.deallocate() }
        for _ in 0..<70 {   // both kinds run while the pool first times them, and at the first probe
            pool.beginStep()
            seen.initialize(repeating: 0, count: count)
            pool.forEachChunk(count, minimum: 10) { r, chunk in
                for i in r { seen[i] += 1; chunkOf[i] = chunk }
            }
            #expect((0..<count).allSatisfy { seen[$0] == 1 })
            #expect((0..<count).allSatisfy { chunkOf[$0] < pool.maximumChunks })
            pool.endStep()
        }
    }
}

/// A flag two threads of a test share.
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

/// A number two threads of a test share.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
