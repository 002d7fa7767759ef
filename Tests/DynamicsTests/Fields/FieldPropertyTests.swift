import Foundation
import Testing

import Dynamics

/// Defaults, factories, validation and waking.
@Suite("FieldBehavior properties")
struct FieldPropertyTests {
    @Test(arguments: FieldMaker.allCases)
    func defaultsAreUIKits(_ maker: FieldMaker) {
        let field = maker.make()
        #expect(field.strength == 1)
        // UIKit's per-kind defaults (charon §10.2): inverse-square radial gravity, Hooke's spring,
        // 1/r electric and magnetic fields, uniform otherwise.
        let falloff: CGFloat = switch maker {
        case .radialGravity: 2
        case .spring: -1
        case .electric, .magnetic: 1
        default: 0
        }
        #expect(field.falloff == falloff)
        #expect(FieldBehavior.defaultFalloff(of: field.kind) == falloff)
        #expect(field.minimumRadius == 0)
        #expect(field.region == .infinite)
        #expect(field.items.isEmpty)
        #expect(field.seed == 0)
        if maker != .radialGravity { #expect(field.position == .zero) }
        if maker != .linearGravity && maker != .velocity { #expect(field.direction == .zero) }
        if maker != .noise && maker != .turbulence {
            #expect(field.smoothness == 0)
            #expect(field.animationSpeed == 0)
        }
    }

    @Test func factoriesStoreTheirArgumentsAndKind() {
        #expect(FieldBehavior.radialGravityField(position: CGPoint(x: 3, y: 4)).position == CGPoint(x: 3, y: 4))
        #expect(FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 2)).direction == CGVector(dx: 1, dy: 2))
        #expect(FieldBehavior.velocityField(direction: CGVector(dx: -5, dy: 0)).direction == CGVector(dx: -5, dy: 0))
        let noise = FieldBehavior.noiseField(smoothness: 0.25, animationSpeed: 2)
        #expect(noise.smoothness == 0.25 && noise.animationSpeed == 2)
        let turbulence = FieldBehavior.turbulenceField(smoothness: 0.75, animationSpeed: 0.5)
        #expect(turbulence.smoothness == 0.75 && turbulence.animationSpeed == 0.5)
        let kinds: [FieldBehavior.Kind] = FieldMaker.allCases.map { $0.make().kind }
        #expect(kinds == [.drag, .vortex, .radialGravity, .linearGravity, .velocity, .noise, .turbulence,
                          .spring, .electric, .magnetic, .custom])
    }

    @Test func nonFiniteValuesKeepTheLastGoodValueAndAreReported() {
        let field = FieldBehavior.vortexField()
        field.strength = 2
        field.falloff = 1
        field.minimumRadius = 5
        field.position = CGPoint(x: 1, y: 2)
        field.direction = CGVector(dx: 3, dy: 4)
        field.animationSpeed = 1
        field.smoothness = 0.5
        field.strength = .nan
        field.falloff = .infinity
        field.minimumRadius = -1
        field.minimumRadius = .nan
        field.position = CGPoint(x: CGFloat.nan, y: 0)
        field.direction = CGVector(dx: 0, dy: -CGFloat.infinity)
        field.animationSpeed = .nan
        field.smoothness = .nan
        #expect(field.strength == 2 && field.falloff == 1 && field.minimumRadius == 5)
        #expect(field.position == CGPoint(x: 1, y: 2) && field.direction == CGVector(dx: 3, dy: 4))
        #expect(field.animationSpeed == 1 && field.smoothness == 0.5)
        // Reported when the field joins an animator.
        let animator = DynamicAnimator()
        animator.addBehavior(field)
        #expect(animator.diagnostics.count == 8)
        field.strength = -.infinity
        #expect(animator.diagnostics.count == 9)
    }

    @Test func negativeStrengthAndFalloffAreAllowed() {
        let field = FieldBehavior.springField()
        field.strength = -3
        field.falloff = -1
        #expect(field.strength == -3 && field.falloff == -1)
    }

    @Test func smoothnessIsClampedIntoZeroToOne() {
        let field = FieldBehavior.noiseField(smoothness: 7, animationSpeed: .nan)
        #expect(field.smoothness == 1 && field.animationSpeed == 0)
        field.smoothness = -0.5
        #expect(field.smoothness == 0)
        let animator = DynamicAnimator()
        animator.addBehavior(field)
        #expect(animator.diagnostics.count == 3)
    }

    @Test func badFactoryArgumentsFallBack() {
        let radial = FieldBehavior.radialGravityField(position: CGPoint(x: CGFloat.infinity, y: 0))
        #expect(radial.position == .zero)
        let linear = FieldBehavior.linearGravityField(direction: CGVector(dx: CGFloat.nan, dy: 1))
        #expect(linear.direction == .zero)
        let animator = DynamicAnimator()
        animator.addBehavior(radial)
        animator.addBehavior(linear)
        #expect(animator.diagnostics.count == 2)
    }

    @Test func changingAPropertyWakesAPausedAnimator() {
        // A spring field of strength 0 holds a resting item: the animator pauses.
        let field = FieldBehavior.springField()
        field.strength = 0
        let rig = FieldRig(field, at: CGPoint(x: 50, y: 0))
        let recorder = AnimatorRecorder()
        rig.animator.delegate = recorder
        rig.animator.advance(by: 1)
        #expect(!rig.animator.isRunning)
        field.strength = 4 * .pi * .pi  // a 1 s period on this mass-1 item
        #expect(rig.animator.isRunning)
        rig.animator.advance(by: 0.25)
        #expect(rig.item.center.x < 40)  // it swings back toward the position
        #expect(recorder.events == ["pause", "resume"])
    }

    @Test(arguments: ["position", "region", "falloff", "minimumRadius", "direction", "smoothness", "animationSpeed", "seed"])
    func everySetterWakesTheAnimator(_ property: String) {
        let field = FieldBehavior.noiseField(smoothness: 0, animationSpeed: 0)
        field.strength = 0
        let rig = FieldRig(field, at: CGPoint(x: 50, y: 0))
        rig.animator.advance(by: 1)
        #expect(!rig.animator.isRunning)
        switch property {
        case "position": field.position = CGPoint(x: 1, y: 1)
        case "region": field.region = Region(radius: 1000)
        case "falloff": field.falloff = 1
        case "minimumRadius": field.minimumRadius = 3
        case "direction": field.direction = CGVector(dx: 1, dy: 0)
        case "smoothness": field.smoothness = 0.5
        case "animationSpeed": field.animationSpeed = 1
        default: field.seed = 3
        }
        #expect(rig.animator.isRunning)
    }

    @Test func settingTheSameValueDoesNotWake() {
        let field = FieldBehavior.dragField()
        let rig = FieldRig(field, at: .zero)
        rig.animator.advance(by: 1)
        #expect(!rig.animator.isRunning)
        field.strength = 1
        field.region = .infinite
        #expect(!rig.animator.isRunning)
    }

    @Test func itemsAreAddedOnceAndRemoved() {
        let field = FieldBehavior.dragField()
        let a = square(at: .zero), b = square(at: CGPoint(x: 200, y: 0))
        field.addItem(a)
        field.addItem(b)
        field.addItem(a)
        #expect(field.items.count == 2)
        field.removeItem(a)
        #expect(field.items.count == 1 && field.items[0] === b)
        field.removeItem(a)
        #expect(field.items.count == 1)
    }

    @Test func aFieldLeavingTheAnimatorStopsActing() {
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 10, dy: 0))
        let rig = FieldRig(field, at: .zero)
        rig.animator.step()
        rig.animator.removeBehavior(field)
        let v = rig.velocity
        rig.animator.advance(by: 0.5)
        #expect(rig.velocity == v)
    }
}
