import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// `interpolatesItems`: what items show between fixed steps at display rates other than the step's.
///
/// The reference motion is uniform: an item launched at constant velocity with no resistance, no
/// gravity and nothing to touch is at x₀ + v t at every time t, so the pose a frame shows can be
/// checked against the display's own time. Poses are `Float` in the engine: at a few hundred points
/// one unit in the last place is 3·10⁻⁵ pt, and 240 sub-steps of rounding stay below 10⁻³ pt.
@Suite struct InterpolationTests {
    /// An animator with one 20 pt square at (100, 200) moving at `velocity` pt/s and turning at
    /// `spin` rad/s, with nothing to slow it down.
    func uniformMotion(velocity: CGPoint = CGPoint(x: 300, y: 0), spin: CGFloat = 0)
        -> (DynamicAnimator, BasicDynamicItem)
    {
        let animator = validatingAnimator()
        let item = square(20, at: CGPoint(x: 100, y: 200))
        let behavior = DynamicItemBehavior(items: [item])
        behavior.resistance = 0
        behavior.angularResistance = 0
        behavior.addLinearVelocity(velocity, for: item)
        if spin != 0 { behavior.addAngularVelocity(spin, for: item) }
        animator.addBehavior(behavior)
        return (animator, item)
    }

    /// At 120 Hz each frame moves the item by v / 120: every frame, not every other one, and the
    /// pose shown is the display's time's, with no step of delay.
    @Test func at120HzEveryFrameMovesByHalfAStep() {
        let (animator, item) = uniformMotion()
        var shown: [CGFloat] = []
        var steps: [Int] = []
        for _ in 0..<120 {
            steps.append(animator.advance(by: 1.0 / 120))
            shown.append(item.center.x)
        }
        #expect(steps.prefix(6) == [1, 0, 1, 0, 1, 0])
        for (k, x) in shown.enumerated() {
            let t = Double(k + 1) / 120
            #expect(abs(x - (100 + 300 * t)) < 1e-3, "frame \(k): x \(x), expected \(100 + 300 * t)")
        }
        let moves = zip(shown.dropFirst(), shown).map { $0 - $1 }
        let range = "\(moves.min()!) … \(moves.max()!)"
        #expect(moves.allSatisfy { abs($0 - 2.5) < 1e-3 }, "moves per frame \(range), expected 2.5 pt")
    }

    /// The same motion without interpolation moves a whole step on every other frame only: the
    /// behaviour the property exists to fix.
    @Test func withoutInterpolationEveryOtherFrameStandsStill() {
        let (animator, item) = uniformMotion()
        animator.interpolatesItems = false
        var moves: [CGFloat] = []
        var last = item.center.x
        for _ in 0..<20 {
            animator.advance(by: 1.0 / 120)
            moves.append(item.center.x - last)
            last = item.center.x
        }
        #expect(moves.filter { $0 == 0 }.count == 10)
        #expect(moves.filter { abs($0 - 5) < 1e-3 }.count == 10)
    }

    /// A display link at 144 Hz, and one whose frame times vary at random (a display under load):
    /// the shown pose follows x₀ + v t at each frame's own time, and the angle the engine's turn
    /// rate the short way round, across ±π. (The engine turns a rotation by ω h along its tangent
    /// and normalises it, as Box2D does: atan(ω h) per sub-step of h, so ω_eff = atan(ω h) / h,
    /// 8.9958 rad/s for 9 rad/s at h = 1/240 s.)
    @Test(arguments: [false, true]) func displayLinkFramesShowTheirOwnTime(varying: Bool) {
        let (animator, item) = uniformMotion(velocity: CGPoint(x: 240, y: -90), spin: 9)
        let h = 1.0 / 240, spin = atan(9 * h) / h
        let link = DisplayLink(preferredFramesPerSecond: 144)
        link.add(animator)
        var random = SplitMix64Generator(seed: 26)
        var t: TimeInterval = 0
        var worst: CGFloat = 0, worstAngle: CGFloat = 0
        for _ in 0..<288 {
            t += varying ? Double.random(in: 0.002...0.03, using: &random) : 1.0 / 144
            link.tick(at: t)
            let x = 100 + 240 * t, y = 200 - 90 * t
            worst = max(worst, hypot(item.center.x - x, item.center.y - y))
            let angle = atan2(item.transform.b, item.transform.a)
            worstAngle = max(worstAngle, abs(remainder(angle - spin * t, 2 * .pi)))
        }
        #expect(worst < 1e-3, "farthest from x₀ + v t: \(worst) pt")
        // a rotation's Float sine and cosine over 2 s at 9 rad/s: 10⁻⁴ rad is far below a frame's turn
        #expect(worstAngle < 1e-4, "farthest from ω_eff t: \(worstAngle) rad")
    }

    /// At 60 Hz interpolation changes nothing: the same poses bit for bit, and the same reports.
    @Test func at60HzItChangesNothing() {
        let scenes = [true, false].map { interpolates -> (DynamicAnimator, BasicDynamicItem, [FrameReport]) in
            let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
            animator.interpolatesItems = interpolates
            let box = square(30, at: CGPoint(x: 150, y: 50))
            let gravity = GravityBehavior(items: [box])
            let collision = CollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(gravity)
            animator.addBehavior(collision)
            var reports: [FrameReport] = []
            animator.addFrameObserver { reports.append($0) }
            for _ in 0..<90 { animator.advance(by: 1.0 / 60) }
            return (animator, box, reports)
        }
        #expect(scenes[0].1.center == scenes[1].1.center)
        #expect(scenes[0].2 == scenes[1].2)
        #expect(scenes[0].2.count == 90)
        #expect(scenes[0].2.allSatisfy { !$0.isInterpolated && $0.presentedTime == $0.time })
    }

    /// The physics is the same at any display rate: after the same number of steps, an item
    /// dropped onto a floor at 144 Hz is where the 60 Hz one is, bit for bit, once the
    /// presentation is turned off (which shows each item's step pose at once).
    @Test func thePhysicsIsTheSameAtAnyRate() {
        func drop(_ frame: TimeInterval, frames: Int) -> (CGPoint, Int) {
            let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
            let box = square(30, at: CGPoint(x: 150, y: 50))
            box.transform = CGAffineTransform(rotationAngle: 0.3)
            let collision = CollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(GravityBehavior(items: [box]))
            animator.addBehavior(collision)
            var steps = 0
            for _ in 0..<frames { steps += animator.advance(by: frame) }
            animator.interpolatesItems = false
            return (box.center, steps)
        }
        let fast = drop(1.0 / 144, frames: 173)   // 1.2 s: 73 steps, the last ending after the display's time
        let slow = drop(1.0 / 60, frames: fast.1)
        #expect(fast.1 == 73)
        #expect(fast.0 == slow.0)
    }

    /// Frame observers hear every display frame that moved the items, steps or not; the reports'
    /// `presentedTime` advances by the frame time and the centers they carry are the shown ones.
    @Test func frameObserversHearEveryFrame() {
        let (animator, item) = uniformMotion()
        var reports: [FrameReport] = []
        var shown: [CGFloat] = []
        animator.addFrameObserver { report in
            reports.append(report)
            shown.append(item.center.x)
        }
        for _ in 0..<12 { animator.advance(by: 1.0 / 144) }
        #expect(reports.count == 12)
        #expect(reports.map(\.index) == Array(0..<12))
        for (k, report) in reports.enumerated() {
            let t = Double(k + 1) / 144
            #expect(abs(report.presentedTime - t) < 1e-9, "frame \(k) shows \(report.presentedTime) s, not \(t)")
            #expect(report.time >= report.presentedTime && report.time - report.presentedTime < 1.0 / 60)
            #expect(report.items[0].center.x == shown[k])
            #expect(abs(report.items[0].velocity.x - 300) < 1e-3)
        }
        #expect(reports.contains { $0.steps == 0 } && reports.contains(where: \.isInterpolated))
    }

    /// An item placed by hand (`updateItem(usingCurrentState:)`) shows its new pose at once and
    /// moves on from there: no frame blends it from where it was.
    @Test func anItemPlacedByHandShowsItsPoseAtOnce() {
        let (animator, item) = uniformMotion()
        for _ in 0..<5 { animator.advance(by: 1.0 / 120) }   // ends inside a step
        item.center = CGPoint(x: 20, y: 300)
        animator.updateItem(usingCurrentState: item)
        #expect(item.center == CGPoint(x: 20, y: 300))
        var shown: [CGFloat] = []
        for _ in 0..<6 {
            animator.advance(by: 1.0 / 120)
            shown.append(item.center.x)
            #expect(item.center.y == 300)
        }
        // The body took the pose at the physics' time, half a step after the display's: the first
        // frame catches up to it and shows it; from there the item moves on at the velocity it
        // kept (updateItem keeps it), never from a pose before the move.
        #expect(shown[0] == 20)
        let moves = zip(shown.dropFirst(), shown).map { $0 - $1 }
        #expect(moves.allSatisfy { abs($0 - 2.5) < 1e-3 }, "\(moves)")
    }

    /// A display frame that runs no step is a frame only when a shown pose changes: after the one
    /// moving item is placed by hand, the next 120 Hz frame (no step due, nothing left to blend)
    /// tells the observers nothing; the frame after it runs a step and does.
    @Test func aFrameThatMovesNothingIsNotReported() {
        let (animator, item) = uniformMotion()
        for _ in 0..<5 { animator.advance(by: 1.0 / 120) }   // ends inside a step
        item.center = CGPoint(x: 20, y: 300)
        animator.updateItem(usingCurrentState: item)
        var reports: [FrameReport] = []
        animator.addFrameObserver { reports.append($0) }
        #expect(animator.advance(by: 1.0 / 120) == 0)
        #expect(reports.isEmpty, "a frame that moved nothing: \(reports.map(\.steps))")
        #expect(animator.advance(by: 1.0 / 120) == 1)
        #expect(reports.map(\.steps) == [1])
    }

    /// An item that stops moving (it lands and falls asleep) ends showing its body's pose, not a
    /// blend left from the last frame it moved in.
    @Test func anItemThatComesToRestShowsItsRestingPose() {
        let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let box = square(30, at: CGPoint(x: 150, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collision)
        var frames = 0
        while animator.isRunning || frames == 0 {
            animator.advance(by: 1.0 / 144)
            frames += 1
            if frames > 144 * 10 { break }
        }
        #expect(!animator.isRunning, "still running after \(frames) frames")
        for _ in 0..<3 { animator.advance(by: 1.0 / 144) }
        let shown = box.center
        animator.interpolatesItems = false
        #expect(box.center == shown, "shown \(shown), body at \(box.center)")
        #expect(abs(box.center.y - 385) < 0.5)
    }

    /// A snapshot taken between steps restores into an animator that shows the same frames after
    /// it as the original (to the Float rounding of the body pose it blends toward).
    @Test func aSnapshotBetweenStepsContinuesTheSameFrames() throws {
        let (animator, item) = uniformMotion(velocity: CGPoint(x: 300, y: 40), spin: 2)
        for _ in 0..<7 { animator.advance(by: 1.0 / 144) }
        let snapshot = animator.snapshot()
        var original: [CGPoint] = []
        for _ in 0..<10 {
            animator.advance(by: 1.0 / 144)
            original.append(item.center)
        }
        try animator.restore(snapshot)
        var restored: [CGPoint] = []
        for _ in 0..<10 {
            animator.advance(by: 1.0 / 144)
            restored.append(item.center)
        }
        for (a, b) in zip(original, restored) { #expect(hypot(a.x - b.x, a.y - b.y) < 1e-4, "\(a) vs \(b)") }
    }
}

extension InterpolationTests {
    /// While interpolating, `advance(by:)` runs every step that starts before the display's time:
    /// the same counts as without for whole steps, one step early for a part of one, and the same
    /// total time.
    @Test func advanceRunsTheStepThatReachesTheDisplaysTime() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        animator.addBehavior(GravityBehavior(items: [item]))
        #expect(animator.advance(by: 1) == 60)
        var total = 0
        for _ in 0..<60 { total += animator.advance(by: 1.0 / 60) }
        #expect(total == 60)
        #expect(animator.advance(by: 0.5 / 60) == 1)   // runs ahead: the display's time is inside it
        #expect(animator.advance(by: 0.5 / 60) == 0)   // reaches its end
        #expect(abs(animator.elapsedTime - 121.0 / 60) < 1e-9)
        #expect(animator.advance(by: 1.0 / 60 + 1e-10) == 1)   // within the tolerance: not a step more
        #expect(animator.diagnostics.isEmpty)
    }
}
