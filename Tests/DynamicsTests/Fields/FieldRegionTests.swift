import Foundation
import Testing

import Dynamics

/// A field acts only inside its region, measured from its position.
@Suite("FieldBehavior regions")
struct FieldRegionTests {
    /// The acceleration a downward linear-gravity field (1000 pt/s²) at `position` with `region`
    /// gives an item at `center`.
    func pull(_ region: Region, position: CGPoint = .zero, at center: CGPoint) -> CGVector {
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0, dy: 10))
        field.position = position
        field.region = region
        return fieldAcceleration(field, at: center)
    }

    @Test func noForceOutsideTheRegion() {
        let disc = Region(radius: 150)
        #expect(nearlyEqual(pull(disc, at: CGPoint(x: 100, y: 0)).dy, 1000))
        #expect(pull(disc, at: CGPoint(x: 200, y: 0)) == .zero)
        // The circle contains its rim.
        #expect(nearlyEqual(pull(disc, at: CGPoint(x: 0, y: 150)).dy, 1000))
    }

    @Test func theRegionIsCentredOnThePosition() {
        let disc = Region(radius: 150)
        let position = CGPoint(x: 1000, y: 500)
        #expect(nearlyEqual(pull(disc, position: position, at: CGPoint(x: 1100, y: 500)).dy, 1000))
        #expect(pull(disc, position: position, at: CGPoint(x: 100, y: 0)) == .zero)
    }

    @Test func anInverseRegionActsOnlyOutside() {
        let outside = Region(radius: 150).inverse()
        #expect(pull(outside, at: CGPoint(x: 100, y: 0)) == .zero)
        #expect(nearlyEqual(pull(outside, at: CGPoint(x: 200, y: 0)).dy, 1000))
        #expect(pull(Region.infinite.inverse(), at: .zero) == .zero)
    }

    @Test func aUnionActsInEitherPart() {
        // A cross: a wide bar and a tall bar.
        let cross = Region(size: CGSize(width: 400, height: 20)).byUnion(with: Region(size: CGSize(width: 20, height: 400)))
        #expect(nearlyEqual(pull(cross, at: CGPoint(x: 150, y: 0)).dy, 1000))
        #expect(nearlyEqual(pull(cross, at: CGPoint(x: 0, y: -150)).dy, 1000))
        #expect(pull(cross, at: CGPoint(x: 150, y: 150)) == .zero)
    }

    @Test func differenceAndIntersectionGateToo() {
        let ring = Region(radius: 200).byDifference(from: Region(radius: 100))
        #expect(pull(ring, at: CGPoint(x: 50, y: 0)) == .zero)
        #expect(nearlyEqual(pull(ring, at: CGPoint(x: 150, y: 0)).dy, 1000))
        let lens = Region(radius: 200).byIntersection(with: Region(size: CGSize(width: 100, height: 1000)))
        #expect(pull(lens, at: CGPoint(x: 150, y: 0)) == .zero)
        #expect(nearlyEqual(pull(lens, at: CGPoint(x: 0, y: 150)).dy, 1000))
    }

    @Test(arguments: FieldMaker.allCases)
    func everyKindIsGatedByItsRegion(_ maker: FieldMaker) {
        let (center, charge, velocity) = maker.probe
        let field = maker.make()
        field.region = Region(radius: 10)
        let rig = FieldRig(field, at: center, charge: charge, velocity: velocity)
        let a = rig.acceleration(steps: 3)
        #expect(length(a) < 1e-6)
    }

    @Test func anItemLeavingTheRegionStopsFeelingTheField() {
        // Pushed right at 1000 pt/s² by a field confined to x < 100 (a 200 pt wide box), the item
        // coasts after.
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 10, dy: 0))
        field.region = Region(size: CGSize(width: 200, height: 200))
        let rig = FieldRig(field, at: CGPoint(x: 0, y: 0))
        rig.animator.advance(by: 1)
        let v = rig.velocity.x
        // It crossed x = 100 at √(2·100/1000) ≈ 0.45 s with ≈ 447 pt/s, then coasted.
        #expect(v > 430 && v < 470)
        let a = rig.acceleration(steps: 5)
        #expect(length(a) < 1e-3)
    }
}
