// Port of zoharIOS/Swift-IOS-Projects, drawing_animations/ExternAnim/ExternAnim/ViewController.swift
// (2018, project created by "hackeru" on 08/01/2018): three 60 × 20 bars; the top two fall under
// gravity, the third (in the collision behaviour but not in gravity) floats at mid-height; the
// reference bounds are the boundary and the top bar bounces with elasticity 0.8. The falling bars
// drive the floating bar down to the floor and come to rest there with it. Where the floating bar
// ends is chaotic: with every item that moves half its size in a step swept against the others
// (bullets, issue 26.3) it stayed on the floor under the pile; before, a last knock from the bouncy
// bar sent it drifting up at 14.64 pt/s until the ceiling stopped it. Since every pair within the
// speculative distance has a contact point (fat boxes cover that distance; a manifold with no
// point is kept only within its margin) a last knock sends it up at 57.3 pt/s, and the other two bars, one lying, one standing against it, slide together along the
// frictionless floor at 12.2 pt/s until the right wall stops them 23 s later.
//
// Edits beyond deleting `UI`: `UIView` → `View`; `view` → a 375 × 667 `View` (an iPhone 8 screen,
// the storyboard's size); `addSubview` and colours dropped; `viewDidAppear` → a call; the display
// link → `step()`.
import Dynamics
import Testing

@Suite("Port: ExternAnim (zoharIOS/Swift-IOS-Projects)")
struct ExternAnimPort {
    final class ViewController {
        let view = View(frame: phoneBounds)
        //animator -> control animations behavour
        var anim: DynamicAnimator!
        var rects: [View] = []

        func viewDidLoad() {
            //set animator to given reference view
            anim = DynamicAnimator(referenceView: view)
        }

        func viewDidAppear(_ animated: Bool) {
            //views to animate
            let rect1 = View(frame: CGRect(
                x: view.frame.width/2,
                y: 20,
                width: 60,
                height: 20))
            let rect2 = View(frame: rect1.frame)
            let rect3 = View(frame: rect1.frame)

            //put rect2 & rect 3 on different points
            rect2.frame.origin.x -= 10
            rect2.frame.origin.y = 50
            rect3.frame.origin.y = view.frame.height/2

            rects = [rect1, rect2, rect3]

            //Animation behaviours
            //gravity
            let grav = GravityBehavior(items: [rect1, rect2])
            grav.gravityDirection = CGVector(dx: 0, dy: 1)
            anim.addBehavior(grav)

            //collision
            let col = CollisionBehavior(items: [rect1, rect2, rect3])
            col.translatesReferenceBoundsIntoBoundary = true
            anim.addBehavior(col)

            //elasticity
            let b = DynamicItemBehavior(items: [rect1])
            b.elasticity = CGFloat(0.8) //range 0 - 1
            anim.addBehavior(b)
        }
    }

    /// The half extents of a bar turned by `angle`, along x and y.
    static func halfExtents(_ r: View) -> (CGFloat, CGFloat) {
        let a = rotation(of: r), w = r.bounds.width / 2, h = r.bounds.height / 2
        return (w * abs(cos(a)) + h * abs(sin(a)), w * abs(sin(a)) + h * abs(cos(a)))
    }

    @Test func theFallingBarsFallFreelyPastTheFloatingBar() {
        let vc = ViewController()
        vc.viewDidLoad()
        vc.viewDidAppear(true)
        // rect2's bottom (y = 70) meets rect3's top (y = 333.5) after 263.5 pt, √(2·263.5/1000) =
        // 0.726 s. At 0.7 s (42 frames, 168 sub-steps of h = 1/240 s) the sub-stepped free fall from
        // rest has gone ½·g·h²·N(N + 1) = 246.458 pt; the floating bar has not moved.
        vc.anim.advance(by: 0.7)
        let fall: CGFloat = 0.5 * 1000 * 168 * 169 / (240 * 240)
        #expect(abs(vc.rects[0].center.y - (30 + fall)) < 0.01)
        #expect(abs(vc.rects[1].center.y - (60 + fall)) < 0.01)
        #expect(vc.rects[2].center == CGPoint(x: 217.5, y: 343.5))
        #expect(vc.rects.allSatisfy { rotation(of: $0) == 0 })
    }

    @Test func thePileRestsOnTheFloorTheFloatingBarDriftsToTheCeilingAndTheAnimatorPauses() throws {
        let vc = ViewController()
        vc.viewDidLoad()
        vc.viewDidAppear(true)
        let (r1, r2, r3) = (vc.rects[0], vc.rects[1], vc.rects[2])
        // The falling bars drive the floating bar to the floor. Whatever knock it gets last, from
        // then on nothing pulls it (it is not in gravity): moving, it keeps its velocity for good
        // (Newton's first law) and the animator keeps running until a boundary stops it; at rest,
        // it stays. Either way the animator pauses.
        vc.anim.advance(by: 5)
        var speeds: [CGFloat] = []
        var last = r3.center
        _ = try #require(runUntil(vc.anim, seconds: 120) {
            let c = r3.center
            if vc.anim.isRunning { speeds.append(hypot(c.x - last.x, c.y - last.y) * 60) }
            last = c
            return !vc.anim.isRunning
        })
        // A drift (more than a second of motion after the pile has settled) is at one speed until
        // it nears the boundary; the bar then rests on the floor or against the ceiling (the
        // collision is perfectly inelastic: UIKit's default elasticity 0), inside the walls. The
        // other bars may keep the animator running after it stops (they slide on the
        // frictionless floor), so its drift is its run of motion, less the last half second.
        let drift = speeds.drop { $0 < 1 }.prefix { $0 >= 1 }.dropLast(30)
        if drift.count > 60 {
            #expect(drift.max()! - drift.min()! < 0.01)
        }
        let (hx3, hy3) = Self.halfExtents(r3)
        let onFloor = abs(r3.center.y + hy3 - 667) < 0.5, onCeiling = abs(r3.center.y - hy3) < 0.5
        #expect(onFloor || onCeiling, "the floating bar rests at \(r3.center)")
        #expect(r3.center.x + hx3 < 375.5 && r3.center.x - hx3 > -0.5)
        // The two bars under gravity lie on the floor, flat on a side, lowest point on y = 667,
        // inside the walls and apart.
        for r in [r1, r2] {
            #expect(isQuarterTurn(rotation(of: r)))
            #expect(abs(r.center.y + Self.halfExtents(r).1 - 667) < 0.1)
            #expect(r.center.x - Self.halfExtents(r).0 > -0.5)
        }
        for r in [r1, r2] { #expect(r.center.x + Self.halfExtents(r).0 < 375.5) }
        let a = r1.frame.insetBy(dx: 0.5, dy: 0.5), b = r2.frame.insetBy(dx: 0.5, dy: 0.5)
        #expect(!a.intersects(b))
        // Paused means still: nothing moves over one more second.
        let before = vc.rects.map(\.center)
        vc.anim.advance(by: 1)
        #expect(vc.rects.map(\.center) == before)
        #expect(vc.anim.diagnostics.isEmpty)
    }
}
