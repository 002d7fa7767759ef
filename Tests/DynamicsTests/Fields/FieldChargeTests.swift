import Foundation
import Testing

import Dynamics

/// Electric and magnetic fields act on charge.
@Suite("FieldBehavior charges")
struct FieldChargeTests {
    @Test(arguments: [FieldMaker.electric, .magnetic])
    func unchargedItemsFeelNothing(_ maker: FieldMaker) {
        let rig = FieldRig(maker.make(), at: CGPoint(x: 60, y: 80), velocity: CGPoint(x: 100, y: 30))
        let a = rig.acceleration(steps: 5)
        #expect(length(a) < 1e-6)
    }

    @Test func likeChargesAreRepelledAndTheForceIsProportionalToTheCharge() {
        let field = FieldBehavior.electricField()
        field.position = CGPoint(x: 300, y: 300)
        let rig = FieldRig(field, at: CGPoint(x: 300, y: 200), charge: 0.5)
        let a = rig.acceleration()
        // Above the field on screen (smaller y): pushed further up, 0.5 × 100 pt/s² on mass 1.
        #expect(nearlyEqual(a, CGVector(dx: 0, dy: -50), relative: 1e-4))
        let opposite = FieldBehavior.electricField()
        opposite.strength = -1
        opposite.position = CGPoint(x: 300, y: 300)
        #expect(nearlyEqual(fieldAcceleration(opposite, at: CGPoint(x: 300, y: 200), charge: 0.5), CGVector(dx: 0, dy: 50), relative: 1e-4))
    }

    @Test func twoLikeChargedItemsInOneElectricFieldBothFlyAway() {
        let animator = DynamicAnimator()
        let left = square(10, at: CGPoint(x: -50, y: 0))
        let right = square(10, at: CGPoint(x: 50, y: 0))
        let material = DynamicItemBehavior(items: [left, right])
        material.charge = 2
        let field = FieldBehavior.electricField()
        field.strength = 0.1  // 100·0.1·2 = 20 mass·pt/s² on mass 0.01: 2000 pt/s²
        field.addItem(left)
        field.addItem(right)
        animator.addBehavior(material)
        animator.addBehavior(field)
        animator.advance(by: 0.2)
        #expect(left.center.x < -60 && right.center.x > 60)
        #expect(abs(left.center.x + right.center.x) < 1e-3)
    }

    @Test func aMagneticFieldKeepsTheSpeedAndCirclesAtTheCyclotronRate() {
        // ω = strength·q/m rad/s (1 N per m/s): mass 1, charge 1, strength 2π circles once a
        // second, on a circle of radius speed / ω.
        let speed = 200.0
        let field = FieldBehavior.magneticField()
        field.strength = 2 * .pi
        field.falloff = 0   // uniform (UIKit's default 1/r would vary along the circle)
        let rig = FieldRig(field, at: CGPoint(x: 0, y: 0), charge: 1, velocity: CGPoint(x: speed, y: 0))
        var minY = 0.0, maxX = 0.0
        for _ in 0..<60 {
            rig.animator.step()
            minY = min(minY, Double(rig.item.center.y))
            maxX = max(maxX, Double(rig.item.center.x))
        }
        let v = rig.velocity
        #expect(abs(hypot(Double(v.x), Double(v.y)) - speed) < 1e-2)
        // After exactly one period the velocity points right again.
        #expect(abs(Double(v.x) - speed) < 0.5 && abs(Double(v.y)) < 1)
        // Counter-clockwise on screen from (0, 0) moving right: the circle lies above (y < 0).
        let radius = speed / (2 * .pi)
        #expect(abs(-minY - 2 * radius) / (2 * radius) < 0.02)
        #expect(abs(maxX - radius) / radius < 0.02)
    }

    @Test func theCyclotronRateFollowsChargeOverMass() {
        // Strength 2π, charge 2 on mass 4: ω = 2π·2/4 = π rad/s → a half turn per second.
        let field = FieldBehavior.magneticField()
        field.strength = 2 * .pi
        field.falloff = 0   // uniform
        let rig = FieldRig(field, at: .zero, side: 200, charge: 2, velocity: CGPoint(x: 100, y: 0))
        rig.animator.advance(by: 1)
        let v = rig.velocity
        #expect(abs(Double(v.x) + 100) < 0.5 && abs(Double(v.y)) < 1)
    }

    @Test func changingTheChargeTakesEffectOnTheNextStep() {
        let rig = FieldRig(.electricField(), at: CGPoint(x: 100, y: 0))
        #expect(length(rig.acceleration()) < 1e-9)
        rig.material.charge = 3
        #expect(nearlyEqual(rig.acceleration(), CGVector(dx: 300, dy: 0), relative: 1e-3))
        rig.material.charge = 0
        #expect(length(rig.acceleration()) < 1e-9)
    }
}
