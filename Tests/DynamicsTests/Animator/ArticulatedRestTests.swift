import Foundation
import Testing

@testable import Dynamics

/// Issue 25, point 2, "Articulated items never settle": figures of pinned items come to rest on
/// the floor and the animator pauses; a pin resting at the bound of its range, and one held by its
/// friction torque, rest too.
@Suite("Issue 25.2: articulated items at rest")
struct ArticulatedRestTests {
    /// A chain of `count` links (60 × 16 pt, or 16 × 60 when `hanging`) pinned through their
    /// overlapping ends (10 pt), in a 600 × 400 reference boundary under gravity, every link
    /// colliding with every other and the boundary.
    func chain(_ count: Int, hanging: Bool, frictionTorque: CGFloat = 0, range: ClosedRange<CGFloat>? = nil)
        -> (DynamicAnimator, [BasicDynamicItem], AnimatorRecorder) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 600, height: 400))
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        var links: [BasicDynamicItem] = []
        for k in 0..<count {
            let offset = 50 * CGFloat(k)
            let link = hanging
                ? BasicDynamicItem(center: CGPoint(x: 300, y: 40 + offset), size: CGSize(width: 16, height: 60))
                : BasicDynamicItem(center: CGPoint(x: 100 + offset, y: 300), size: CGSize(width: 60, height: 16))
            if let last = links.last {
                let pin = hanging ? CGPoint(x: 300, y: 15 + offset) : CGPoint(x: 75 + offset, y: 300)
                let attachment = AttachmentBehavior.pinAttachment(with: last, attachedTo: link, attachmentAnchor: pin)
                attachment.frictionTorque = frictionTorque
                if let range { attachment.attachmentRange = range }
                animator.addBehavior(attachment)
            }
            links.append(link)
        }
        let collision = CollisionBehavior(items: links)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: links))
        animator.addBehavior(collision)
        if hanging {
            // An upright chain standing on its end is an equilibrium, if an unstable one: a nudge
            // of the top link (a turn at 1 rad/s) makes it fall over, as the slightest touch would.
            // (Its fall used to come from the solver's own asymmetry, which the block solve of a
            // contact's two points no longer has.) A turn, not a push: a push sideways would give
            // the frictionless chain momentum, and it would slide along the floor for good.
            let nudge = DynamicItemBehavior(items: [links[0]])
            nudge.addAngularVelocity(1, for: links[0])
            animator.addBehavior(nudge)
        }
        return (animator, links, recorder)
    }

    /// Chains dropped flat or falling over from upright, free or with friction and limits at their
    /// pins, land, rest on the floor and pause within 5 s; nothing moves afterwards.
    @Test(arguments: [(false, CGFloat(0), false), (true, 0, false), (true, 0.02, false), (true, 0, true), (true, 0.02, true)])
    func issue25Point2AChainOfPinnedItemsLyingOnTheFloorPauses(_ setup: (Bool, CGFloat, Bool)) {
        let (animator, links, recorder) = chain(6, hanging: setup.0, frictionTorque: setup.1, range: setup.2 ? -0.8...0.8 : nil)
        for _ in 0..<(60 * 5) { animator.step() }
        let rest = links.map(\.center)
        for _ in 0..<120 { animator.step() }
        // A chain that falls over folds onto itself, a link lying across its neighbours: with the
        // pins at 240 Hz such a link flipped by ±0.1 pt from step to step for good (5–12 pt/s,
        // above the 5 pt/s sleep speed). `WorldDef.stiffJoints` has the measurements behind 140 Hz.
        #expect(!animator.isRunning)
        #expect(recorder.pauseTimes.count == 1)
        #expect(zip(links, rest).allSatisfy { $0.0.center == $0.1 })
        guard !setup.0 else { return }
        // Dropped flat, it lies on the floor: every link's lowest point is within a point of y = 400.
        // (Fallen over, a link may rest across another.)
        for link in links {
            let angle = atan2(link.transform.b, link.transform.a)
            let halfHeight = 0.5 * (abs(cos(angle)) * link.bounds.height + abs(sin(angle)) * link.bounds.width)
            #expect(link.center.y + halfHeight > 395 && link.center.y + halfHeight < 401)
        }
    }

    /// A limb pinned to an anchored item, swinging down onto the bound of its `attachmentRange`
    /// (a limit joint at its bound), rests there and the animator pauses: the limit does not
    /// jitter. The limb stops at the bound, 0.5 rad from where it started.
    @Test func issue25Point2APinRestingAtTheBoundOfItsRangeRests() {
        let animator = DynamicAnimator()
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        let base = square(40, at: CGPoint(x: 0, y: 0))
        let limb = BasicDynamicItem(center: CGPoint(x: 50, y: 0), size: CGSize(width: 80, height: 12))
        let anchored = DynamicItemBehavior(items: [base])
        anchored.isAnchored = true
        let pin = AttachmentBehavior.pinAttachment(with: base, attachedTo: limb, attachmentAnchor: CGPoint(x: 15, y: 0))
        pin.attachmentRange = -0.5...0.5
        animator.addBehavior(anchored)
        animator.addBehavior(pin)
        animator.addBehavior(GravityBehavior(items: [limb]))
        for _ in 0..<(60 * 4) { animator.step() }
        #expect(!animator.isRunning)
        let angle = atan2(limb.transform.b, limb.transform.a)
        // Gravity turns it clockwise on screen (y down): the angle grows to the upper bound.
        #expect(abs(angle - 0.5) < 0.01, "angle \(angle)")
    }

    /// `frictionTorque` is a motor of speed 0 with that much torque: a horizontal limb whose
    /// weight's torque about the pin (m·g·L/2) is below it stays put and the animator pauses; one
    /// whose weight's torque is above it swings down.
    @Test func issue25Point2FrictionTorqueHoldsALimbItsWeightCannotTurn() {
        // Limb 80 × 12 pt, density 1: mass 0.096, its center 35 pt from the pin: torque of its
        // weight 0.096 · 1000 · 35 = 3360 mass·pt²/s² = 0.336 UIKit torque units.
        func swing(frictionTorque: CGFloat) -> (angle: CGFloat, running: Bool) {
            let animator = DynamicAnimator()
            let base = square(40, at: .zero)
            let limb = BasicDynamicItem(center: CGPoint(x: 50, y: 0), size: CGSize(width: 80, height: 12))
            let anchored = DynamicItemBehavior(items: [base])
            anchored.isAnchored = true
            let pin = AttachmentBehavior.pinAttachment(with: base, attachedTo: limb, attachmentAnchor: CGPoint(x: 15, y: 0))
            pin.frictionTorque = frictionTorque
            animator.addBehavior(anchored)
            animator.addBehavior(pin)
            animator.addBehavior(GravityBehavior(items: [limb]))
            for _ in 0..<(60 * 2) { animator.step() }
            return (atan2(limb.transform.b, limb.transform.a), animator.isRunning)
        }
        let held = swing(frictionTorque: 0.4)
        #expect(abs(held.angle) < 0.01, "angle \(held.angle)")
        #expect(!held.running)
        let falls = swing(frictionTorque: 0.25)
        #expect(falls.angle > 0.5)
    }

    /// A ragdoll of 13 rectangles and 12 pins — head, torso, pelvis, upper and lower arms, thighs,
    /// shins, feet — pinned where the parts overlap, with `attachmentRange` limits on the neck,
    /// waist, elbows, hips, knees and ankles and a `frictionTorque` on every pin, dropped tumbling
    /// into a 400 × 600 boundary under gravity, all parts colliding (joined pairs excepted, as on
    /// iOS). It must land, lie still and pause.
    ///
    /// With the animator's pins at 240 Hz it shimmered for good (parts at 2–45 pt/s, ±0.1–3 pt) in
    /// 32 of 40 tumbles between −5 and 5 rad/s; at 140 Hz with damping ratio 4 all 40 paused
    /// (`WorldDef.stiffJoints`), but other landings (the sweep of `sweepPastSpeculativeReach`)
    /// left 5 of 40 shimmering at 10–35 pt/s: recycled manifolds between jointed parts kept the
    /// cycle going (`recycleJointedContacts`, off in the animator: 40 of 40 at 120–180 Hz). All
    /// 40 tumbles run here.
    @Test(arguments: Array(stride(from: -5.0, through: 5.0, by: 0.25)).filter { $0 != 0 } as [CGFloat])
    func issue25Point2ARagdollLyingOnTheFloorPauses(spin: CGFloat) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 600))
        var parts: [String: BasicDynamicItem] = [:]
        func part(_ name: String, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) {
            parts[name] = BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: w, height: h), name: name)
        }
        part("head", 200, 118, 36, 36); part("torso", 200, 175, 50, 80); part("pelvis", 200, 225, 50, 30)
        part("upperArmL", 178, 162, 16, 56); part("upperArmR", 222, 162, 16, 56)
        part("forearmL", 178, 212, 14, 56); part("forearmR", 222, 212, 14, 56)
        part("thighL", 188, 264, 20, 60); part("thighR", 212, 264, 20, 60)
        part("shinL", 188, 320, 18, 60); part("shinR", 212, 320, 18, 60)
        part("footL", 180, 354, 30, 12); part("footR", 220, 354, 30, 12)
        func pin(_ a: String, _ b: String, _ x: CGFloat, _ y: CGFloat, _ range: ClosedRange<CGFloat>? = nil) {
            let p = AttachmentBehavior.pinAttachment(with: parts[a]!, attachedTo: parts[b]!, attachmentAnchor: CGPoint(x: x, y: y))
            p.frictionTorque = 0.02
            if let range { p.attachmentRange = range }
            animator.addBehavior(p)
        }
        pin("head", "torso", 200, 137, -0.5...0.5); pin("torso", "pelvis", 200, 212, -0.3...0.3)
        pin("torso", "upperArmL", 178, 140); pin("torso", "upperArmR", 222, 140)
        pin("upperArmL", "forearmL", 178, 187, 0...2.4); pin("upperArmR", "forearmR", 222, 187, -2.4...0)
        pin("pelvis", "thighL", 188, 237, -1...1); pin("pelvis", "thighR", 212, 237, -1...1)
        pin("thighL", "shinL", 188, 292, -2.4...0); pin("thighR", "shinR", 212, 292, 0...2.4)
        pin("shinL", "footL", 188, 350, -0.5...0.5); pin("shinR", "footR", 212, 350, -0.5...0.5)
        let all = parts.keys.sorted().map { parts[$0]! }
        let collision = CollisionBehavior(items: all)
        collision.translatesReferenceBoundsIntoBoundary = true
        let tumble = DynamicItemBehavior(items: [parts["torso"]!])
        tumble.addAngularVelocity(spin, for: parts["torso"]!)
        animator.addBehavior(GravityBehavior(items: all))
        animator.addBehavior(collision)
        animator.addBehavior(tumble)
        for _ in 0..<(60 * 12) { animator.step() }
        #expect(!animator.isRunning, "spin \(spin) rad/s: still moving after 12 s")
        // Paused means still: nothing moves while it lies there.
        let lying = all.map(\.center)
        for _ in 0..<60 { animator.step() }
        #expect(all.map(\.center) == lying)
        // It lies on the floor, within the 400 × 600 bounds.
        #expect(all.allSatisfy { $0.center.y > 300 && $0.center.y < 600 && $0.center.x > 0 && $0.center.x < 400 })
    }
}
