import Foundation
import Testing

@testable import Dynamics

/// Velocity-dependent fields: drag and velocity fields.
@Suite("FieldBehavior drag and velocity")
struct DragAndVelocityFieldTests {
    @Test(arguments: [0.5, 1.0, 3.0])
    func dragDecaysTheSpeedExponentiallyAtTheStrengthRate(_ strength: Double) {
        let field = FieldBehavior.dragField()
        field.strength = CGFloat(strength)
        let rig = FieldRig(field, at: .zero, velocity: CGPoint(x: 300, y: -120))
        for step in 1...60 {
            rig.animator.step()
            if step % 20 == 0 {
                let t = Double(step) / 60
                let v = rig.velocity
                #expect(abs(Double(v.x) - 300 * exp(-strength * t)) < 1e-3 * 300)
                #expect(abs(Double(v.y) + 120 * exp(-strength * t)) < 1e-3 * 120)
            }
        }
    }

    @Test func dragOfStrengthOneMatchesAResistanceOfOne() {
        let field = FieldBehavior.dragField()
        let dragged = FieldRig(field, at: .zero, velocity: CGPoint(x: 300, y: 0))
        let resisted = FieldRig(.linearGravityField(direction: .zero), at: .zero, velocity: CGPoint(x: 300, y: 0))
        resisted.material.resistance = 1
        dragged.animator.advance(by: 1)
        resisted.animator.advance(by: 1)
        #expect(abs(dragged.velocity.x - resisted.velocity.x) / resisted.velocity.x < 0.01)
    }

    @Test func aHugeDragStopsButNeverReversesAnItem() {
        let field = FieldBehavior.dragField()
        field.strength = 1e6
        let rig = FieldRig(field, at: .zero, velocity: CGPoint(x: 300, y: 0))
        rig.animator.step()
        #expect(abs(rig.velocity.x) < 1e-3)
        #expect(rig.animator.diagnostics.isEmpty)
    }

    @Test func dragScalesWithFalloff() {
        // Falloff 1 at 200 pt halves the rate.
        let field = FieldBehavior.dragField()
        field.falloff = 1
        let rig = FieldRig(field, at: CGPoint(x: 200, y: 0), velocity: CGPoint(x: 0, y: 10))
        rig.animator.advance(by: 1)
        #expect(abs(Double(rig.velocity.y) - 10 * exp(-0.5)) < 0.01)
    }

    @Test func theVelocityFieldBringsItemsToTheTargetVelocity() {
        let field = FieldBehavior.velocityField(direction: CGVector(dx: 200, dy: -100))
        let rig = FieldRig(field, at: .zero, velocity: CGPoint(x: -50, y: 30))
        // After 0.15 s = 3τ the gap has shrunk to e^−3.
        for _ in 0..<9 { rig.animator.step() }
        let gap = exp(-3.0)
        #expect(abs(Double(rig.velocity.x) - (200 + (-50 - 200) * gap)) < 0.05)
        #expect(abs(Double(rig.velocity.y) - (-100 + (30 + 100) * gap)) < 0.05)
        rig.animator.advance(by: 1)
        #expect(abs(rig.velocity.x - 200) < 1e-2 && abs(rig.velocity.y + 100) < 1e-2)
    }

    @Test func theTargetIsStrengthTimesDirection() {
        let field = FieldBehavior.velocityField(direction: CGVector(dx: 0, dy: 50))
        field.strength = 3
        let rig = FieldRig(field, at: .zero)
        rig.animator.advance(by: 1)
        #expect(abs(rig.velocity.y - 150) < 1e-2)
        #expect(abs(rig.velocity.x) < 1e-6)
    }

    @Test func underGravityTheVelocityFieldSettlesNearItsTarget() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let field = FieldBehavior.velocityField(direction: CGVector(dx: 100, dy: 0))
        field.addItem(item)
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(field)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.addBehavior(probe)
        animator.advance(by: 2)
        let v = probe.linearVelocity(for: item)
        #expect(abs(v.x - 100) < 1e-2)
        // Δt / (1 − e^(−Δt/τ)) × g ≈ 58.8 pt/s.
        let lag = (1.0 / 60) / -expm1(-(1.0 / 60) / 0.05) * 1000
        #expect(abs(Double(v.y) - lag) < 0.5)
    }
}
