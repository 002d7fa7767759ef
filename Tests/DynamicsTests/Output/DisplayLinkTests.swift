import Foundation
import Testing

import Dynamics

/// A clock that never sleeps: `sleep(until:)` jumps `now` to the deadline, plus an optional
/// seeded overshoot (jitter), and can throw `CancellationError` after a number of sleeps.
final class ManualTestClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .seconds(1_000))
    private var rng: UInt64
    private let maximumOvershoot: Double
    private let sleepLimit: Int?
    private var sleeps = 0

    /// - Parameters:
    ///   - maximumOvershoot: Each sleep wakes up to this many seconds late (uniform, seeded).
    ///   - sleepLimit: The sleep after this many throws `CancellationError`.
    init(maximumOvershoot: Double = 0, seed: UInt64 = 1, sleepLimit: Int? = nil) {
        self.maximumOvershoot = maximumOvershoot
        self.rng = seed
        self.sleepLimit = sleepLimit
    }

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }
    var sleepCount: Int { lock.withLock { sleeps } }

    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        try lock.withLock {
            if let sleepLimit, sleeps >= sleepLimit { throw CancellationError() }
            sleeps += 1
            let overshoot = maximumOvershoot * Double(nextRandom() >> 11) / Double(1 << 53)
            current = max(current, deadline).advanced(by: .seconds(overshoot))
        }
    }

    /// SplitMix64.
    private func nextRandom() -> UInt64 {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("DisplayLink")
struct DisplayLinkTests {
    // MARK: Manual mode

    @Test func sixtyTicksMakeOneSecond() {
        let link = DisplayLink()
        #expect(link.preferredFramesPerSecond == 60)
        #expect(link.duration == 1.0 / 60)
        #expect(link.timestamp == 0)
        #expect(abs(link.targetTimestamp - 1.0 / 60) < 1e-15)
        var seen: [(TimeInterval, TimeInterval, TimeInterval)] = []
        link.addObserver { seen.append(($0.timestamp, $0.targetTimestamp, $0.lastFrameDuration)) }
        for _ in 0 ..< 60 { #expect(link.tick()) }
        #expect(abs(link.timestamp - 1.0) < 1e-12)
        #expect(abs(link.targetTimestamp - (1.0 + 1.0 / 60)) < 1e-12)
        #expect(seen.count == 60)
        #expect(link.frameCount == 60)
        for (k, (timestamp, target, elapsed)) in seen.enumerated() {
            #expect(abs(timestamp - Double(k + 1) / 60) < 1e-12)
            #expect(abs(target - timestamp - 1.0 / 60) < 1e-12)
            #expect(elapsed == 1.0 / 60)
        }
    }

    @Test(arguments: [
        (60, 60), (0, 60), (-5, 60), (30, 30), (1, 1), (120, 120), (5_000, 1_000), (Int.min, 60), (Int.max, 1_000),
    ])
    func frameRatesAreClamped(preferred: Int, effective: Int) {
        let link = DisplayLink(preferredFramesPerSecond: preferred)
        #expect(link.preferredFramesPerSecond == preferred)
        #expect(link.framesPerSecond == effective)
        #expect(link.duration == 1 / Double(effective))
        link.tick()
        #expect(link.timestamp == 1 / Double(effective))
    }

    @Test func changingTheRateTakesEffectOnTheNextFrame() {
        let link = DisplayLink(preferredFramesPerSecond: 60)
        for _ in 0 ..< 30 { link.tick() }
        link.preferredFramesPerSecond = 10
        #expect(abs(link.targetTimestamp - 0.6) < 1e-12)
        link.tick()
        #expect(abs(link.timestamp - 0.6) < 1e-12)
        #expect(link.lastFrameDuration == 0.1)
    }

    @Test func tickAtReportsTheElapsedTime() {
        let link = DisplayLink()
        var durations: [TimeInterval] = []
        link.addObserver { durations.append($0.lastFrameDuration) }
        #expect(link.tick(at: 0.25))
        #expect(link.tick(at: 0.5))
        #expect(!link.tick(at: 0.5))  // not later
        #expect(!link.tick(at: 0.1))  // backwards
        #expect(!link.tick(at: .nan))
        #expect(!link.tick(at: .infinity))
        #expect(durations == [0.25, 0.25])
        #expect(link.timestamp == 0.5)
        #expect(link.targetTimestamp == 0.5 + 1.0 / 60)
    }

    @Test func pauseWithholdsFramesButNotTime() {
        let link = DisplayLink()
        var frames: [TimeInterval] = []
        link.addObserver { frames.append($0.lastFrameDuration) }
        link.tick()
        link.isPaused = true
        for _ in 0 ..< 100 { #expect(!link.tick()) }
        #expect(frames.count == 1)
        #expect(abs(link.timestamp - 101.0 / 60) < 1e-12)
        link.isPaused = false
        #expect(link.tick())
        #expect(frames.count == 2)
        // The pause does not show up as one long frame.
        #expect(frames[1] == 1.0 / 60)
        #expect(link.frameCount == 2)
    }

    @Test func invalidateStopsFramesAndReleasesObservers() {
        final class Target { var frames = 0 }
        let link = DisplayLink()
        weak var weakTarget: Target?
        do {
            let target = Target()
            weakTarget = target
            link.addObserver { _ in target.frames += 1 }
        }
        link.tick()
        #expect(weakTarget?.frames == 1)
        link.invalidate()
        #expect(weakTarget == nil)
        #expect(!link.tick())
        #expect(!link.tick(at: 10))
        #expect(link.isInvalidated)
        link.invalidate()  // harmless
        link.addObserver { _ in Issue.record("an invalid link has no observers") }
        link.tick()
    }

    @Test func invalidatingInsideAnObserverStopsTheFrame() {
        let link = DisplayLink()
        var calls: [String] = []
        link.addObserver { link in calls.append("first"); link.invalidate() }
        link.addObserver { _ in calls.append("second") }
        link.tick()
        link.tick()
        #expect(calls == ["first"])
    }

    @Test func observersAddedOrRemovedDuringAFrame() {
        let link = DisplayLink()
        var calls: [String] = []
        var second: DisplayLink.ObserverToken?
        link.addObserver { link in
            calls.append("first")
            if let token = second { link.removeObserver(token); second = nil }
            if calls.count == 1 { link.addObserver { _ in calls.append("late") } }
        }
        second = link.addObserver { _ in calls.append("second") }
        link.tick()  // "second" is removed before its turn; "late" waits for the next frame
        link.tick()
        #expect(calls == ["first", "first", "late"])
    }

    // MARK: Real time, on a manual clock

    @Test func realTimeDoesNotDriftOverTenThousandFrames() async {
        // Every sleep wakes up to 0.9 frame late; the frames must stay on the grid.
        let clock = ManualTestClock(maximumOvershoot: 0.9 / 60, seed: 42)
        let start = clock.now
        let link = DisplayLink(preferredFramesPerSecond: 60)
        var worst = 0.0
        var total = 0.0
        link.addObserver { link in
            worst = max(worst, abs(link.lastFrameDuration - 1.0 / 60))
            total += link.lastFrameDuration
            if link.frameCount == 10_000 { link.invalidate() }
        }
        await link.run(clock: clock)
        #expect(link.frameCount == 10_000)
        #expect(link.skippedFrameCount == 0)
        #expect(abs(link.timestamp - 10_000.0 / 60) < 1e-9)
        #expect(abs(link.targetTimestamp - 10_001.0 / 60) < 1e-9)
        #expect(worst < 1e-9)
        #expect(abs(total - link.timestamp) < 1e-9)
        // The clock stayed within one frame of the schedule.
        let span = start.duration(to: clock.now).components
        let elapsed = Double(span.seconds) + Double(span.attoseconds) * 1e-18
        #expect(elapsed >= 10_000.0 / 60 && elapsed < 10_001.0 / 60)
        #expect(!link.isRunning)
    }

    @Test func aLongStallSkipsFramesInsteadOfBursting() async {
        let clock = ManualTestClock()
        let link = DisplayLink(preferredFramesPerSecond: 60)
        var frames: [(timestamp: TimeInterval, elapsed: TimeInterval)] = []
        link.addObserver { link in
            frames.append((link.timestamp, link.lastFrameDuration))
            if link.frameCount == 100 { clock.advance(by: .milliseconds(5_010)) }  // the frame takes 5.01 s
            if link.frameCount == 103 { link.invalidate() }
        }
        await link.run(clock: clock)
        #expect(frames.count == 103)
        // Frame 100 is at 100/60 s; the stall ends at 100/60 + 5.01 s = 400.6 frames: frame 400 is
        // delivered at once, reporting the whole gap; frames 101...399 are skipped.
        #expect(abs(frames[99].timestamp - 100.0 / 60) < 1e-12)
        #expect(abs(frames[100].timestamp - 400.0 / 60) < 1e-12)
        #expect(abs(frames[100].elapsed - 5.0) < 1e-12)
        #expect(link.skippedFrameCount == 299)
        #expect(abs(frames[101].timestamp - 401.0 / 60) < 1e-12)
        #expect(abs(frames[101].elapsed - 1.0 / 60) < 1e-12)
        #expect(abs(frames[102].timestamp - 402.0 / 60) < 1e-12)
        let total = frames.reduce(0) { $0 + $1.elapsed }
        #expect(abs(total - link.timestamp) < 1e-12)
    }

    @Test func lateByLessThanAFrameKeepsTheSchedule() async {
        let clock = ManualTestClock()
        let link = DisplayLink(preferredFramesPerSecond: 50)
        var stamps: [TimeInterval] = []
        link.addObserver { link in
            stamps.append(link.timestamp)
            if link.frameCount == 1 { clock.advance(by: .milliseconds(35)) }  // frame 2 wakes 15 ms late
            if link.frameCount == 3 { link.invalidate() }
        }
        await link.run(clock: clock)
        #expect(stamps.count == 3)
        #expect(abs(stamps[0] - 0.02) < 1e-12)
        #expect(abs(stamps[1] - 0.04) < 1e-12)
        #expect(abs(stamps[2] - 0.06) < 1e-12)
        #expect(link.skippedFrameCount == 0)
    }

    @Test func taskCancellationStopsTheLoop() async {
        let clock = ManualTestClock()
        // The link lives in its own task, which an observer cancels.
        let (frames, running, invalidated) = await Task {
            let link = DisplayLink()
            link.addObserver { link in
                if link.frameCount == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            await link.run(clock: clock)
            return (link.frameCount, link.isRunning, link.isInvalidated)
        }.value
        #expect(frames == 5)
        #expect(!running)
        #expect(!invalidated)
        #expect(clock.sleepCount == 5)
    }

    @Test func cancellingFromOutsideStopsTheLoop() async {
        let clock = ManualTestClock(maximumOvershoot: 0)
        let task = Task {
            let link = DisplayLink()
            await link.run(clock: clock)  // never invalidated: only cancellation ends it
            return link.frameCount
        }
        task.cancel()
        let frames = await task.value
        #expect(frames >= 0)
    }

    @Test func pausedRunKeepsTimeAndResumesWithoutALongFrame() async {
        let clock = ManualTestClock(sleepLimit: 30)
        let link = DisplayLink()
        var durations: [TimeInterval] = []
        link.addObserver { durations.append($0.lastFrameDuration) }
        link.isPaused = true
        await link.run(clock: clock)  // 30 undelivered frames, then the clock cancels
        #expect(durations.isEmpty)
        #expect(abs(link.timestamp - 30.0 / 60) < 1e-12)

        let resumed = ManualTestClock(sleepLimit: 3)
        link.isPaused = false
        await link.run(clock: resumed)  // timestamps continue from the first run
        #expect(durations.count == 3)
        #expect(durations.allSatisfy { abs($0 - 1.0 / 60) < 1e-12 })
        #expect(abs(link.timestamp - 33.0 / 60) < 1e-12)
    }

    @Test func rateChangeDuringRunReanchorsTheSchedule() async {
        let clock = ManualTestClock()
        let link = DisplayLink(preferredFramesPerSecond: 60)
        var stamps: [TimeInterval] = []
        link.addObserver { link in
            stamps.append(link.timestamp)
            if link.frameCount == 60 { link.preferredFramesPerSecond = 10 }
            if link.frameCount == 70 { link.invalidate() }
        }
        await link.run(clock: clock)
        #expect(stamps.count == 70)
        #expect(abs(stamps[59] - 1.0) < 1e-12)
        #expect(abs(stamps[60] - 1.1) < 1e-12)
        #expect(abs(stamps[69] - 2.0) < 1e-12)
    }

    @Test func runOnAnInvalidLinkReturnsAtOnce() async {
        let clock = ManualTestClock()
        let link = DisplayLink()
        link.invalidate()
        await link.run(clock: clock)
        #expect(clock.sleepCount == 0)
    }

    @Test func tickIsIgnoredWhileRunning() async {
        let clock = ManualTestClock()
        let link = DisplayLink()
        var ticked: [Bool] = []
        link.addObserver { link in
            ticked.append(link.tick())
            if link.frameCount == 2 { link.invalidate() }
        }
        await link.run(clock: clock)
        #expect(ticked == [false, false])
    }

    @MainActor
    @Test func runsInTheCallersIsolation() async {
        let clock = ManualTestClock()
        let link = DisplayLink()
        var frames = 0
        link.addObserver { link in
            MainActor.assertIsolated()
            frames += 1
            if frames == 3 { link.invalidate() }
        }
        let task = Task { await link.run(clock: clock) }
        await task.value
        #expect(frames == 3)
    }
}
