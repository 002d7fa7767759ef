import DynamicsEngine
import Foundation

// What the items show between fixed steps (`interpolatesItems`).
//
// Why it is shaped so: the steps stay fixed, so the physics is the same at any display rate, and
// `advance(by:)` runs steps until the physics has reached the display's time (at most one step
// past it). The items then show the pose the display's time falls on, between the pose before the
// last step and the pose after it. At 60 Hz the display's time is a step's end, so the items show
// the step's own pose and nothing changes; at 120 or 144 Hz each frame shows its own pose, evenly
// spaced, instead of one frame moving a whole step and the next not at all. Showing the time
// *before* the last step (as most engines do) would delay every frame by one step at 60 Hz too.

extension DynamicAnimator {
    /// The difference below which two times are one, in seconds: `advance(by:)`'s tolerance.
    static let timeTolerance: TimeInterval = 1e-9

    /// Where the display's time stands in the last step, from 0 (its start) to 1 (its end): what
    /// the items show while ``interpolatesItems``. 1 when the animator does not interpolate, or
    /// the display's time is a step's end.
    var presentationFraction: Double {
        guard storedInterpolatesItems, accumulator < -Self.timeTolerance else { return 1 }
        return min(1, max(0, 1 + accumulator / storedStepDuration))
    }

    /// The number of steps `advance(by:)` runs for the time in `accumulator`: every whole step that
    /// fits, or, while interpolating, every step that starts before the display's time (so the
    /// physics reaches it, at most one step ahead).
    func stepsDue() -> Int {
        let dt = storedStepDuration
        let steps = storedInterpolatesItems
            ? ((accumulator - Self.timeTolerance) / dt).rounded(.up)
            : ((accumulator + Self.timeTolerance) / dt).rounded(.down)
        return steps < Double(Int.max / 2) ? max(0, Int(steps)) : Int.max / 2
    }

    /// Starts a step's list of moved items when it will be shown blended (`noting`): the last step
    /// of an `advance(by:)` that ends inside it. Other steps (every step at 60 Hz, every `step()`)
    /// are shown as they are, so their moves need no list.
    func beginPresentationStep(noting: Bool) {
        isNotingPresentation = noting && storedInterpolatesItems
        guard storedInterpolatesItems, isNotingPresentation || !presenting.isEmpty else { return }
        presentationStamp &+= 1
        // the last step's list, checked after the write-back for items this step did not move
        swap(&presenting, &leftPresenting)
        presenting.removeAll(keepingCapacity: true)
    }

    /// Notes that the step moved `r` to `center`, `angle`: the item's shown pose runs from its pose
    /// before the step to this one.
    @inline(__always)
    func noteStepPose(_ r: ItemRecord, _ center: CGPoint, _ angle: CGFloat) {
        if isNotingPresentation {
            r.fromCenter = r.stepCenter
            r.fromAngle = r.stepAngle
            r.fromFraction = 0
            if r.presentationStamp != presentationStamp {
                r.presentationStamp = presentationStamp
                presenting.append(r)
            }
        }
        r.stepCenter = center
        r.stepAngle = angle
    }

    /// Records that `r` was placed by hand (joined, re-read): it shows that pose at once.
    func notePlaced(_ r: ItemRecord, _ center: CGPoint, _ angle: CGFloat) {
        r.lastCenter = center
        r.lastAngle = angle
        r.stepCenter = center
        r.stepAngle = angle
        r.presentationStamp = -1
    }

    /// Whether `r` moved in the last step and shows a pose of the presentation (its own, or one
    /// between the step's two ends).
    func isPresenting(_ r: ItemRecord) -> Bool {
        storedInterpolatesItems && r.presentationStamp == presentationStamp
    }

    /// Shows every item that moved in the last step at ``presentationFraction``; returns whether
    /// any item's shown pose changed.
    @discardableResult
    func presentItems() -> Bool {
        let fraction = presentationFraction
        var moved = false
        for r in presenting where r.presentationStamp == presentationStamp {
            guard !r.properties.isAnchored, recordSlots[r.slot] === r else { continue }
            let (center, angle) = presentedPose(r, at: fraction)
            guard center != r.lastCenter || angle != r.lastAngle else { continue }
            show(r, center, angle)
            moved = true
        }
        return moved
    }

    /// The pose `r` shows at `fraction` of the last step: on the straight line from its start to
    /// the step's pose, turning the short way round.
    func presentedPose(_ r: ItemRecord, at fraction: Double) -> (CGPoint, CGFloat) {
        let span = 1 - r.fromFraction
        guard fraction < 1, span > 0 else { return (r.stepCenter, r.stepAngle) }
        let t = CGFloat(max(0, (fraction - r.fromFraction) / span))
        let from = r.fromCenter, to = r.stepCenter
        let center = CGPoint(x: from.x + t * (to.x - from.x), y: from.y + t * (to.y - from.y))
        let turn = remainder(r.stepAngle - r.fromAngle, 2 * .pi)
        return (center, r.fromAngle + t * turn)
    }

    /// Shows the step's own pose for every item that was blending in the last step but did not
    /// move in this one (it fell asleep, or something holds it): called after the write-back, so
    /// an item never stays at a blend.
    func finishLeftPresentation() {
        guard !leftPresenting.isEmpty else { return }
        for r in leftPresenting where r.presentationStamp == presentationStamp &- 1 {
            guard recordSlots[r.slot] === r else { continue }
            r.presentationStamp = -1
            guard r.stepCenter != r.lastCenter || r.stepAngle != r.lastAngle else { continue }
            show(r, r.stepCenter, r.stepAngle)
        }
        leftPresenting.removeAll(keepingCapacity: true)
    }

    /// ``interpolatesItems`` was turned off: every item shows its body's pose at once.
    func stopPresenting() {
        for r in presenting where r.presentationStamp == presentationStamp {
            r.presentationStamp = -1
            guard recordSlots[r.slot] === r else { continue }
            guard r.stepCenter != r.lastCenter || r.stepAngle != r.lastAngle else { continue }
            show(r, r.stepCenter, r.stepAngle)
        }
        presenting.removeAll()
        leftPresenting.removeAll()
        presentationStamp &+= 1
    }

    /// After a restore: each item's step pose is its body's. An item that shows another pose (the
    /// snapshot was taken with the display's time inside a step) continues from the pose it shows,
    /// at that fraction, so the frames after the restore show the same motion as the original's
    /// (to the body pose's `Float` rounding).
    func restorePresentation() {
        presentationStamp &+= 1
        presenting.removeAll()
        leftPresenting.removeAll()
        let fraction = presentationFraction
        for r in records {
            r.presentationStamp = -1
            r.stepCenter = r.lastCenter
            r.stepAngle = r.lastAngle
            guard fraction < 1, !r.properties.isAnchored, world.isValid(r.body) else { continue }
            let transform = world.transform(r.body)
            let center = transform.p.cgPoint, angle = bodyAngle(r, transform.q)
            guard center != r.lastCenter || angle != r.lastAngle else { continue }
            r.stepCenter = center
            r.stepAngle = angle
            r.fromCenter = r.lastCenter
            r.fromAngle = r.lastAngle
            r.fromFraction = fraction
            r.presentationStamp = presentationStamp
            presenting.append(r)
        }
    }
}
