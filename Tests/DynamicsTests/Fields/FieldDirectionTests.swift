import Foundation
import Testing

@testable import Dynamics

/// Which way each field pushes, on a y-down screen.
@Suite("FieldBehavior directions")
struct FieldDirectionTests {
    @Test func linearGravityOfStrengthOneIsOneGravity() {
        let a = fieldAcceleration(.linearGravityField(direction: CGVector(dx: 0, dy: 1)), at: CGPoint(x: 30, y: -20))
        #expect(nearlyEqual(a, CGVector(dx: 0, dy: 1000)))
        let sideways = fieldAcceleration(.linearGravityField(direction: CGVector(dx: -0.5, dy: 0)), at: .zero)
        #expect(nearlyEqual(sideways, CGVector(dx: -500, dy: 0)))
    }

    @Test func linearGravityFallsLikeGravityBehavior() {
        // Free fall 500 pt in 1 s (½·g·t²·(1 + 1/N) exactly), the same as a GravityBehavior.
        let animator = DynamicAnimator()
        let fieldItem = square(at: .zero)
        let gravityItem = square(at: CGPoint(x: 1000, y: 0))
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0, dy: 1))
        field.addItem(fieldItem)
        animator.addBehavior(field)
        animator.addBehavior(GravityBehavior(items: [gravityItem]))
        animator.advance(by: 1)
        let expected = 0.5 * 1000 * (1 + 1 / 240.0)
        #expect(abs(Double(fieldItem.center.y) - expected) < 0.5)
        #expect(abs(fieldItem.center.y - gravityItem.center.y) < 1e-3)
    }

    @Test func radialGravityPullsTowardThePositionAndNegativeRepels() {
        let position = CGPoint(x: 200, y: 300)
        let right = fieldAcceleration(.radialGravityField(position: position), at: CGPoint(x: 260, y: 380))
        // 100 pt away along (0.6, 0.8): pulled back at 1000 pt/s².
        #expect(nearlyEqual(right, CGVector(dx: -600, dy: -800)))
        let repel = FieldBehavior.radialGravityField(position: position)
        repel.strength = -1
        #expect(nearlyEqual(fieldAcceleration(repel, at: CGPoint(x: 260, y: 380)), CGVector(dx: 600, dy: 800)))
    }

    @Test func vortexTurnsCounterClockwiseOnScreen() {
        // Right of the center, counter-clockwise on a y-down screen is up (−y); below it, right.
        let right = fieldAcceleration(.vortexField(), at: CGPoint(x: 100, y: 0))
        #expect(nearlyEqual(right, CGVector(dx: 0, dy: -1000)))
        let below = fieldAcceleration(.vortexField(), at: CGPoint(x: 0, y: 100))
        #expect(nearlyEqual(below, CGVector(dx: 1000, dy: 0)))
        let clockwise = FieldBehavior.vortexField()
        clockwise.strength = -1
        #expect(nearlyEqual(fieldAcceleration(clockwise, at: CGPoint(x: 100, y: 0)), CGVector(dx: 0, dy: 1000)))
    }

    @Test func vortexCarriesAnItemAroundCounterClockwise() {
        // The screen angle atan2(−y, x) grows for counter-clockwise motion on a y-down screen.
        let field = FieldBehavior.vortexField()
        field.falloff = -1  // ∝ distance
        let rig = FieldRig(field, at: CGPoint(x: 100, y: 0))
        var last = 0.0
        var turned = 0.0
        for _ in 0..<20 {
            rig.animator.step()
            let angle = atan2(-Double(rig.item.center.y), Double(rig.item.center.x))
            turned += angle - last
            last = angle
        }
        #expect(turned > 0.05)
    }

    @Test func springPullsBackToThePosition() {
        let field = FieldBehavior.springField()
        field.position = CGPoint(x: 10, y: 10)
        let a = fieldAcceleration(field, at: CGPoint(x: 60, y: 10))
        // k = 4π² per strength: 50 pt on mass 1 → 50·4π² pt/s² toward the position.
        #expect(nearlyEqual(a, CGVector(dx: -50 * 4 * Double.pi * Double.pi, dy: 0)))
    }

    @Test func dragOpposesTheVelocity() {
        let a = fieldAcceleration(.dragField(), at: .zero, velocity: CGPoint(x: 300, y: -400))
        #expect(a.dx < 0 && a.dy > 0)
        #expect(abs(a.dx / a.dy + 0.75) < 1e-4)
    }

    @Test func velocityFieldPushesTowardItsDirection() {
        let a = fieldAcceleration(.velocityField(direction: CGVector(dx: 0, dy: -200)), at: .zero)
        #expect(a.dy < 0)
        #expect(abs(a.dx) < 1e-6)
    }

    @Test func electricFieldRepelsLikeChargesAndAttractsUnlikeOnes() {
        let position = CGPoint(x: 100, y: 100)
        func field() -> FieldBehavior { let f = FieldBehavior.electricField(); f.position = position; return f }
        let positive = fieldAcceleration(field(), at: CGPoint(x: 100, y: 200), charge: 1)
        #expect(nearlyEqual(positive, CGVector(dx: 0, dy: 1000)))  // pushed away, down the screen
        let negative = fieldAcceleration(field(), at: CGPoint(x: 100, y: 200), charge: -2)
        #expect(nearlyEqual(negative, CGVector(dx: 0, dy: -2000)))
    }

    @Test func magneticFieldTurnsPositiveChargesCounterClockwise() {
        // Moving right (+x), a counter-clockwise turn on a y-down screen bends the path up (−y).
        let a = fieldAcceleration(.magneticField(), at: .zero, charge: 1, velocity: CGPoint(x: 100, y: 0))
        // An exact turn by θ = 2π·Δt per step (mass 1, charge 1, strength 1).
        let theta = 2 * Double.pi / 60
        #expect(a.dy < 0)
        #expect(nearlyEqual(a, CGVector(dx: (cos(theta) - 1) * 100 * 60, dy: -sin(theta) * 100 * 60), relative: 1e-3))
        let reversed = FieldBehavior.magneticField()
        reversed.strength = -1
        #expect(fieldAcceleration(reversed, at: .zero, charge: 1, velocity: CGPoint(x: 100, y: 0)).dy > 0)
        #expect(fieldAcceleration(.magneticField(), at: .zero, charge: -1, velocity: CGPoint(x: 100, y: 0)).dy > 0)
    }

    @Test func aFieldActsOnlyOnItsOwnItems() {
        let animator = DynamicAnimator()
        let mine = square(at: CGPoint(x: 0, y: 0))
        let other = square(at: CGPoint(x: 500, y: 0))
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0, dy: 1))
        field.addItem(mine)
        animator.addBehavior(field)
        animator.addBehavior(DynamicItemBehavior(items: [other]))
        animator.advance(by: 0.5)
        #expect(mine.center.y > 100)
        #expect(other.center == CGPoint(x: 500, y: 0))
        field.removeItem(mine)
        let y = mine.center.y
        animator.advance(by: 0.1)
        #expect(field.items.isEmpty)
        #expect(mine.center.y == y)  // it left the world: no behaviour holds it any more
    }
}
