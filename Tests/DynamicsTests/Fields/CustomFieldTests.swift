import Foundation
import Testing

import Dynamics

/// Fields whose law is a block.
@Suite("FieldBehavior custom")
struct CustomFieldTests {
    /// What one call of the block received.
    struct Call: Equatable {
        var position: CGPoint
        var velocity: CGVector
        var mass: CGFloat
        var charge: CGFloat
        var time: TimeInterval
    }

    @Test func theBlockReceivesReferenceSpaceStateAndItsForceIsApplied() throws {
        var calls: [Call] = []
        let field = FieldBehavior.field { field, position, velocity, mass, charge, time in
            calls.append(Call(position: position, velocity: velocity, mass: mass, charge: charge, time: time))
            return CGVector(dx: 0, dy: 1000 * mass * field.strength)  // one gravity
        }
        // The field's position is far away: the block still sees the item's own coordinates.
        field.position = CGPoint(x: 500, y: 500)
        let rig = FieldRig(field, at: CGPoint(x: 120, y: 80), side: 200, density: 0.5, charge: -3,
                           velocity: CGPoint(x: 40, y: 0))
        let a = rig.acceleration()
        #expect(calls.count == 1)
        let first = try #require(calls.first)
        #expect(first.position == CGPoint(x: 120, y: 80))
        #expect(first.velocity == CGVector(dx: 40, dy: 0))
        #expect(abs(first.mass - 2) < 1e-5)  // 200 × 200 pt at density 0.5
        #expect(first.charge == -3)
        #expect(first.time == 1.0 / 60)  // the clock at the end of the first step
        #expect(nearlyEqual(a, CGVector(dx: 0, dy: 1000)))
        // Next step: the item's new center, which the animator also wrote to the item.
        let center = rig.item.center
        rig.animator.step()
        #expect(calls.count == 2)
        #expect(calls[1].position == center)
    }

    @Test func theLastArgumentIsTheAnimatorsClockAtTheEndOfTheStep() {
        // UIKit passes its world's clock after the sub-step, not the step's duration (charon §10.2),
        // whatever its header calls the argument: here 1/60, 2/60, 3/60 … — the elapsed time once
        // the step is done.
        var times: [TimeInterval] = []
        let field = FieldBehavior.field { _, _, _, _, _, time in times.append(time); return .zero }
        let rig = FieldRig(field, at: .zero, velocity: CGPoint(x: 50, y: 0))
        var elapsed: [TimeInterval] = []
        for _ in 0..<90 {
            rig.animator.step()
            elapsed.append(rig.animator.elapsedTime)
        }
        #expect(times.count == 90)
        #expect(times == elapsed)
        #expect(abs(times[89] - 1.5) < 1e-12)
        // A longer step shows in the clock, as in UIKit.
        rig.animator.stepDuration = 0.05
        rig.animator.step()
        #expect(abs(times[90] - 1.55) < 1e-12)
    }

    @Test func strengthAndFalloffAreNotAppliedToTheBlock() {
        let field = FieldBehavior.field { _, _, _, mass, _, _ in CGVector(dx: 100 * mass, dy: 0) }
        field.strength = 5
        field.falloff = 2
        let a = fieldAcceleration(field, at: CGPoint(x: 300, y: 0))
        #expect(nearlyEqual(a, CGVector(dx: 100, dy: 0)))
    }

    @Test func theRegionGatesTheBlock() {
        var count = 0
        let field = FieldBehavior.field { _, _, _, _, _, _ in count += 1; return CGVector(dx: 1, dy: 0) }
        field.position = CGPoint(x: 100, y: 100)
        field.region = Region(radius: 50)
        let animator = DynamicAnimator()
        let inside = square(10, at: CGPoint(x: 120, y: 100)), outside = square(10, at: CGPoint(x: 0, y: 0))
        field.addItem(inside)
        field.addItem(outside)
        animator.addBehavior(field)
        for _ in 0..<3 { animator.step() }
        #expect(count == 3)
    }

    @Test func aNonFiniteForceIsContainedToItsItem() {
        let field = FieldBehavior.field { _, position, _, mass, _, _ in
            position.x < 0 ? CGVector(dx: CGFloat.nan, dy: 1) : CGVector(dx: 0, dy: 1000 * mass)
        }
        let animator = DynamicAnimator()
        let bad = square(at: CGPoint(x: -200, y: 0), name: "bad")
        let good = square(at: CGPoint(x: 200, y: 0), name: "good")
        field.addItem(bad)
        field.addItem(good)
        animator.addBehavior(field)
        animator.advance(by: 0.5)
        #expect(bad.center == CGPoint(x: -200, y: 0))
        #expect(good.center.y > 100)
        #expect(animator.diagnostics.map(\.kind) == [.nonFiniteForce(item: ObjectIdentifier(bad))])
    }

    @Test func anInfiniteOrOverflowingForceIsContainedToo() {
        for force in [CGVector(dx: CGFloat.infinity, dy: 0), CGVector(dx: 0, dy: 1e30)] {
            let field = FieldBehavior.field { _, _, _, _, _, _ in force }
            let rig = FieldRig(field, at: CGPoint(x: 5, y: 5))
            rig.animator.advance(by: 0.1)
            #expect(rig.item.center == CGPoint(x: 5, y: 5))
            #expect(rig.animator.diagnostics.count == 1)
        }
    }

    @Test func theBlockMayReadAndChangeItsField() {
        var seen: [CGFloat] = []
        let field = FieldBehavior.field { field, _, _, _, _, _ in
            seen.append(field.strength)
            field.strength += 1
            return .zero
        }
        let rig = FieldRig(field, at: .zero)
        for _ in 0..<3 { rig.animator.step() }
        #expect(seen == [1, 2, 3])
    }

    @Test func aDiagnosticHandlerMayChangeTheFieldInTheMiddleOfAStep() {
        // A containment report is delivered from inside the field's loop; the handler adds an
        // item and makes the animator synchronise there and then.
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0))
        field.falloff = 30
        let rig = FieldRig(field, at: .zero)
        let late = square(10, at: CGPoint(x: 80, y: 0))
        rig.animator.diagnosticHandler = { [unowned animator = rig.animator] _ in
            field.addItem(late)
            _ = animator.items(in: CGRect(x: -1000, y: -1000, width: 2000, height: 2000))
        }
        rig.animator.step()
        rig.animator.step()
        #expect(field.items.count == 2)
        #expect(rig.item.center == .zero)
        #expect(late.center.x > 80)  // (80 / 100)^−30 ≈ 808 m/s²: it joined and was pushed
    }
}
