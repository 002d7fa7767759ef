import Foundation

/// A display-link-style ticker: it calls its observers once per frame, at a steady rate.
///
/// Like `CADisplayLink`, a link reports `timestamp` (the time of the frame being delivered),
/// `targetTimestamp` (the time of the next frame) and `duration` (the interval between frames).
/// All times are in seconds, counted from the link's own origin: 0 when the link is created.
///
/// A link is driven in one of two ways:
/// - **Manually**, for tests and offline rendering: call `tick()` to pass one frame of `duration`
///   seconds, or `tick(at:)` to pass a frame at a given timestamp. Nothing sleeps.
/// - **In real time**, with `await run()` (a `ContinuousClock`) or `await run(clock:)` (any
///   clock, so tests can pass a manual one). Frames fall on the absolute deadlines
///   `start + k · duration`, so the rate does not drift however long the link runs. A frame that
///   wakes late by less than one `duration` keeps its scheduled timestamp; after a stall of a
///   whole frame or more, the missed frames are skipped (no burst) and the next delivered frame
///   reports the whole gap in `lastFrameDuration`. Stop it with `invalidate()` or by cancelling
///   the task that runs it.
///
/// Don't mix the two at once: `tick()` does nothing while `run` is running.
///
/// An animator driven by a link advances by each frame's `lastFrameDuration`, so its time
/// follows the link's: the sum of a link's `lastFrameDuration`s equals its `timestamp`.
///
/// A link is not `Sendable`: it lives in the isolation of its creator (the main actor in an app,
/// one task on a server), and `run` keeps running in the caller's isolation, so observers run
/// there too.
///
/// ```swift
/// let link = DisplayLink(preferredFramesPerSecond: 60)
/// link.addObserver { link in animator.advance(by: link.lastFrameDuration) }
/// let task = Task { await link.run() }   // later: link.invalidate(), or task.cancel()
/// ```
public final class DisplayLink {
    /// A handle for removing an observer.
    public struct ObserverToken: Hashable, Sendable {
        let id: Int
    }

    /// The frame rate the link aims for, in frames per second; default 60.
    ///
    /// 0 asks for the display's maximum, which for this platform-neutral link is 60. Negative
    /// values also mean 60, and values above 1000 are clamped to 1000. The property keeps the
    /// value you set; `duration` uses the effective rate. A change takes effect from the next
    /// frame, without a jump in time.
    public var preferredFramesPerSecond: Int {
        didSet {
            targetTimestamp = timestamp + duration
        }
    }

    /// The time of the most recent frame, in seconds since the link was created; 0 before the
    /// first frame. Within an observer, the time of the frame being delivered.
    public private(set) var timestamp: TimeInterval = 0

    /// The time of the next frame, in seconds since the link was created: `timestamp + duration`
    /// (to within rounding). Within an observer, the deadline the frame should be finished by.
    public private(set) var targetTimestamp: TimeInterval

    /// The time that passed between the previous frame and the most recent one, in seconds:
    /// one `duration` normally, more after `tick(at:)` jumps ahead or a real-time stall. Frames
    /// passed while paused are counted too (they were not delivered), so a pause never shows up
    /// as one long frame. 0 before the first frame.
    public private(set) var lastFrameDuration: TimeInterval = 0

    /// Whether frames are withheld; default `false`. While paused, time keeps passing
    /// (`tick()` still moves `timestamp` on, `run` keeps its schedule) but observers are not called.
    public var isPaused = false

    /// Whether `invalidate()` was called. An invalid link delivers no more frames.
    public private(set) var isInvalidated = false

    /// Whether `run` is running.
    public private(set) var isRunning = false

    /// The number of frames delivered to observers so far.
    public private(set) var frameCount = 0

    /// The number of frames `run` skipped because it woke a whole frame or more too late.
    public private(set) var skippedFrameCount = 0

    private var observers: [(token: ObserverToken, body: (DisplayLink) -> Void)] = []
    private var nextObserverID = 0

    /// Creates a link; it does nothing until it is ticked or run.
    ///
    /// - Parameter preferredFramesPerSecond: The frame rate, in frames per second; default 60
    ///   (0 or negative: 60; above 1000: 1000).
    public init(preferredFramesPerSecond: Int = 60) {
        self.preferredFramesPerSecond = preferredFramesPerSecond
        targetTimestamp = 1 / Double(Self.effectiveRate(preferredFramesPerSecond))
    }

    /// The frame rate in use, in frames per second: `preferredFramesPerSecond` clamped to
    /// 1…1000, with 0 and negative values meaning 60.
    public var framesPerSecond: Int {
        Self.effectiveRate(preferredFramesPerSecond)
    }

    /// The interval between frames, in seconds: `1 / framesPerSecond` (1/60 by default).
    public var duration: TimeInterval {
        1 / Double(framesPerSecond)
    }

    static func effectiveRate(_ preferred: Int) -> Int {
        preferred <= 0 ? 60 : min(preferred, 1000)
    }

    // MARK: Observers

    /// Adds `body`, called once per delivered frame with this link, after `timestamp`,
    /// `targetTimestamp` and `lastFrameDuration` are updated. Observers run in the order they
    /// were added; one added during a frame is first called on the next frame.
    ///
    /// - Parameter body: The closure to call.
    /// - Returns: A token for `removeObserver(_:)`.
    @discardableResult
    public func addObserver(_ body: @escaping (DisplayLink) -> Void) -> ObserverToken {
        guard !isInvalidated else { return ObserverToken(id: -1) }
        let token = ObserverToken(id: nextObserverID)
        nextObserverID += 1
        observers.append((token, body))
        return token
    }

    /// Removes the observer that `token` names; an unknown token is ignored. An observer removed
    /// during a frame is not called for the rest of that frame.
    public func removeObserver(_ token: ObserverToken) {
        observers.removeAll { $0.token == token }
    }

    /// Stops the link for good: no more frames, `run` returns, and the observers are released
    /// (which breaks any reference cycle through them). Calling it again does nothing.
    public func invalidate() {
        isInvalidated = true
        observers = []
    }

    // MARK: Manual mode

    /// Passes one frame of `duration` seconds: advances `timestamp` by `duration` and calls the
    /// observers (unless paused).
    ///
    /// - Returns: Whether observers were called: `false` when paused, invalidated, or while
    ///   `run` is running (the tick is then ignored).
    @discardableResult
    public func tick() -> Bool {
        guard !isRunning, !isInvalidated else { return false }
        let step = duration
        return frame(timestamp: timestamp + step, target: timestamp + 2 * step, elapsed: step)
    }

    /// Passes one frame at `timestamp` seconds: the frame reports the time since the previous
    /// frame in `lastFrameDuration`, then the observers are called (unless paused).
    ///
    /// - Parameter timestamp: The frame's time, in seconds since the link was created. A
    ///   timestamp that is not finite, or not later than the current `timestamp`, is ignored.
    /// - Returns: Whether observers were called.
    @discardableResult
    public func tick(at timestamp: TimeInterval) -> Bool {
        guard !isRunning, !isInvalidated, timestamp.isFinite, timestamp > self.timestamp else { return false }
        return frame(timestamp: timestamp, target: timestamp + duration, elapsed: timestamp - self.timestamp)
    }

    /// Records a frame and delivers it unless paused; returns whether it was delivered.
    private func frame(timestamp: TimeInterval, target: TimeInterval, elapsed: TimeInterval) -> Bool {
        self.timestamp = timestamp
        targetTimestamp = target
        lastFrameDuration = elapsed
        guard !isPaused else { return false }
        frameCount += 1
        for observer in observers {
            guard !isInvalidated else { break }
            // Skip an observer removed earlier in this frame.
            guard observers.contains(where: { $0.token == observer.token }) else { continue }
            observer.body(self)
        }
        return true
    }

    // MARK: Real time

    /// Runs the link in real time on a `ContinuousClock` until it is invalidated or the task is
    /// cancelled. See `run(clock:)`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public nonisolated(nonsending) func run() async {
        await run(clock: ContinuousClock())
    }

    /// Runs the link in real time on `clock` until it is invalidated or the task is cancelled.
    ///
    /// Frame `k` after the start is due at `start + k · duration` (recomputed from the last frame
    /// when `preferredFramesPerSecond` changes), so timing errors never accumulate. The loop
    /// sleeps until each deadline; a frame woken less than one `duration` late keeps its
    /// scheduled timestamp; after a longer stall the missed deadlines are skipped and the next
    /// frame is the latest deadline already passed, its `lastFrameDuration` spanning the whole
    /// gap. `timestamp`s continue from where a previous run or tick left them.
    ///
    /// The method runs in the caller's isolation (it is `nonisolated(nonsending)`), so the link
    /// and its observers never cross an isolation boundary. Calling `run` while it is already
    /// running, or on an invalidated link, returns at once.
    ///
    /// - Parameter clock: The clock that times the frames, e.g. `ContinuousClock()`; tests pass a
    ///   manual clock.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public nonisolated(nonsending) func run<C: Clock>(clock: C) async where C.Duration == Duration {
        guard !isRunning, !isInvalidated else { return }
        isRunning = true
        defer { isRunning = false }

        // The schedule: frame k is due at `anchor + k · period`, and has the timestamp
        // `anchorTimestamp + k · period`. Both are re-anchored at the last frame when the rate
        // changes. Durations are exact integers of attoseconds, so nothing drifts.
        var rate = framesPerSecond
        var anchor = clock.now
        var anchorTimestamp = timestamp
        var k = 0

        func deadline(_ k: Int) -> C.Instant {
            anchor.advanced(by: Self.offset(frames: k, rate: rate))
        }
        func time(_ k: Int) -> TimeInterval {
            anchorTimestamp + Self.seconds(Self.offset(frames: k, rate: rate))
        }

        while !isInvalidated && !Task.isCancelled {
            if framesPerSecond != rate {
                anchor = deadline(k)
                anchorTimestamp = time(k)
                rate = framesPerSecond
                k = 0
            }
            var next = k + 1
            do {
                try await clock.sleep(until: deadline(next), tolerance: nil)
            } catch {
                break  // cancelled
            }
            guard !isInvalidated, !Task.isCancelled else { break }

            let now = clock.now
            if deadline(next + 1) <= now {
                // A stall of a whole frame or more: jump to the latest deadline already passed.
                let late = Self.frames(in: anchor.duration(to: now), rate: rate)
                var caughtUp = max(next, late)
                while deadline(caughtUp + 1) <= now { caughtUp += 1 }
                while caughtUp > next && deadline(caughtUp) > now { caughtUp -= 1 }
                skippedFrameCount += caughtUp - next
                next = caughtUp
            }
            let previous = time(k)
            let stamp = time(next)
            _ = frame(timestamp: stamp, target: time(next + 1), elapsed: stamp - previous)
            k = next
        }
    }

    /// The time from a schedule's anchor to its frame `frames`, exact to the attosecond.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func offset(frames: Int, rate: Int) -> Duration {
        // (frames / rate) seconds, split so the attosecond part never overflows.
        let whole = frames / rate
        let rest = frames % rate
        return .seconds(whole) + (.seconds(rest) / rate)
    }

    /// An estimate of the whole frames in `elapsed` (the caller corrects it by ±1).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func frames(in elapsed: Duration, rate: Int) -> Int {
        let frames = (seconds(elapsed) * Double(rate)).rounded(.down)
        return frames.isFinite ? Int(max(0, min(frames, Double(Int.max / 2)))) : 0
    }

    /// `duration` in seconds.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
