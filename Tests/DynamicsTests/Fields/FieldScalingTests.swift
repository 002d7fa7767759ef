import Foundation
import Testing

@testable import Dynamics

/// How each law scales with strength, distance, falloff, minimum radius and mass.
@Suite("FieldBehavior scaling")
struct FieldScalingTests {
    @Test(arguments: FieldMaker.allCases.filter { $0 != .custom })
    func doublingTheStrengthDoublesTheAcceleration(_ maker: FieldMaker) {
        let (center, charge, velocity) = maker.probe
        let one = fieldAcceleration(maker.make(), at: center, charge: charge, velocity: velocity)
        let field = maker.make()
        field.strength = 2  // for the velocity field: twice the target velocity, so twice the push from rest
        let two = fieldAcceleration(field, at: center, charge: charge, velocity: velocity)
        #expect(one.magnitude > 1)
        if maker == .drag || maker == .magnetic {
            // Exact over the step: e^(−2cΔt) − 1 and a turn by 2θ, not twice the first-order law.
            #expect(two.magnitude > 1.9 * one.magnitude && two.magnitude < 2 * one.magnitude)
        } else {
            #expect(nearlyEqual(two, CGVector(dx: 2 * one.dx, dy: 2 * one.dy), relative: 1e-4))
        }
    }

    @Test func falloffTwoQuartersTheForceAtTwiceTheDistance() {
        func pull(at distance: CGFloat) -> CGFloat {
            let field = FieldBehavior.radialGravityField(position: CGPoint(x: 50, y: 50))
            field.falloff = 2
            return fieldAcceleration(field, at: CGPoint(x: 50 + distance, y: 50)).magnitude
        }
        #expect(nearlyEqual(pull(at: 100), 1000))   // the reference distance: factor 1
        #expect(nearlyEqual(pull(at: 200), 250))
        #expect(nearlyEqual(pull(at: 400), 1000.0 / 16))
        #expect(nearlyEqual(pull(at: 50), 4000))
    }

    @Test(arguments: [-1.0, 0.0, 1.0, 3.0])
    func theReferenceDistanceIsOneHundredPoints(_ falloff: Double) {
        let field = FieldBehavior.vortexField()
        field.falloff = CGFloat(falloff)
        let a = fieldAcceleration(field, at: CGPoint(x: 0, y: -100))
        #expect(nearlyEqual(a.magnitude, 1000))
        let far = FieldBehavior.vortexField()
        far.falloff = CGFloat(falloff)
        #expect(nearlyEqual(fieldAcceleration(far, at: CGPoint(x: 0, y: -300)).magnitude, 1000 * pow(3, -falloff)))
    }

    @Test func falloffZeroIsUniform() {
        let near = fieldAcceleration(.radialGravityField(position: .zero), at: CGPoint(x: 3, y: 0))
        let far = fieldAcceleration(.radialGravityField(position: .zero), at: CGPoint(x: 3000, y: 0))
        #expect(nearlyEqual(near, far))
    }

    @Test func minimumRadiusClampsTheFalloff() {
        func pull(at distance: CGFloat) -> CGFloat {
            let field = FieldBehavior.radialGravityField(position: .zero)
            field.falloff = 2
            field.minimumRadius = 50
            return fieldAcceleration(field, at: CGPoint(x: 0, y: distance)).magnitude
        }
        #expect(nearlyEqual(pull(at: 10), 4000))  // as at 50 pt
        #expect(nearlyEqual(pull(at: 50), 4000))
        #expect(nearlyEqual(pull(at: 200), 250))  // beyond it, unchanged
    }

    @Test func anItemAtThePositionIsNotPushedEvenWithFalloff() {
        let field = FieldBehavior.radialGravityField(position: CGPoint(x: 10, y: 10))
        field.falloff = 2
        let rig = FieldRig(field, at: CGPoint(x: 10, y: 10))
        rig.animator.step()
        #expect(rig.item.center == CGPoint(x: 10, y: 10))
        #expect(rig.animator.diagnostics.isEmpty)
    }

    @Test func aHugeFalloffNearThePositionIsContainedNotAppliedAsInfinity() {
        // (0.001 / 100)^−20 overflows any float: the force is ignored and reported, not applied.
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0))
        field.falloff = 20
        field.position = CGPoint(x: 0.5, y: 0)
        let rig = FieldRig(field, at: CGPoint(x: 0.5, y: 0))
        rig.animator.step()
        rig.animator.step()
        #expect(rig.item.center.x.isFinite && rig.item.center.y.isFinite)
        #expect(rig.animator.diagnostics.count == 1)
    }

    @Test(arguments: [FieldMaker.linearGravity, .radialGravity, .vortex, .noise])
    func gravityLikeFieldsIgnoreMass(_ maker: FieldMaker) {
        let light = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), side: 10)
        let heavy = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), side: 100, density: 7)
        #expect(nearlyEqual(light, heavy, relative: 1e-4))
    }

    @Test(arguments: [FieldMaker.spring, .electric])
    func forceFieldsAccelerateHeavierItemsLess(_ maker: FieldMaker) {
        let one = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), charge: 1)
        let three = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), density: 3, charge: 1)
        #expect(nearlyEqual(three, CGVector(dx: one.dx / 3, dy: one.dy / 3), relative: 1e-4))
    }
}
