import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// `EngineOwner`, the `userData` that crosses from the animator into the engine: its integers are
/// archived in snapshots, so they are pinned here, and every body and shape of a running animator
/// decodes to the record that made it.
@Suite struct EngineOwnerTests {
    /// The snapshot format's encoding: item k → k, boundary k → −(k + 1), ground → −1.
    @Test func theEncodingIsTheSnapshotFormats() {
        #expect(EngineOwner.item(slot: 0).userData == 0)
        #expect(EngineOwner.item(slot: 41).userData == 41)
        #expect(EngineOwner.boundary(slot: 0).userData == -1)
        #expect(EngineOwner.boundary(slot: 6).userData == -7)
        #expect(EngineOwner.ground.userData == -1)
    }

    /// Decoding gives back what was encoded; −1 is ground on a body and boundary 0 on a shape.
    @Test(arguments: [0, 1, 7, 1 << 20]) func decodingInvertsEncoding(slot: Int) {
        #expect(EngineOwner(body: EngineOwner.item(slot: slot).userData) == .item(slot: slot))
        #expect(EngineOwner(shape: EngineOwner.item(slot: slot).userData) == .item(slot: slot))
        #expect(EngineOwner(shape: EngineOwner.boundary(slot: slot).userData) == .boundary(slot: slot))
        #expect(EngineOwner(body: EngineOwner.ground.userData) == .ground)
        #expect(EngineOwner(shape: -1) == .boundary(slot: 0))
        #expect(EngineOwner.item(slot: slot).itemSlot == slot && EngineOwner.boundary(slot: slot).itemSlot == nil)
    }

    /// In a running animator with items, a group, boundaries and an attachment to the ground:
    /// every item body and shape names its record's slot, every boundary shape its boundary slot,
    /// and the boundary and anchor bodies are ground.
    @Test func everyBodyAndShapeNamesItsOwner() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let items = (0..<3).map { square(20, at: CGPoint(x: 60 + 80 * CGFloat($0), y: 100)) }
        let members = [square(10, at: CGPoint(x: 100, y: 300)), square(10, at: CGPoint(x: 130, y: 300))]
        let group = DynamicItemGroup(items: members)
        let collision = CollisionBehavior(items: items + [group])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 200), to: CGPoint(x: 200, y: 200))
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(AttachmentBehavior(item: items[0], attachedToAnchor: CGPoint(x: 60, y: 20)))
        animator.step()

        #expect(animator.records.count == 4)
        for r in animator.records {
            #expect(animator.world.owner(of: r.body) == .item(slot: r.slot))
            #expect(!r.shapes.isEmpty && r.shapes.allSatisfy { animator.world.owner(of: $0) == .item(slot: r.slot) })
            #expect(r.shapes.allSatisfy { animator.itemRecord(of: $0) === r })
        }
        let boundaries = animator.boundarySlots.slots.enumerated().compactMap { k, b in b.map { (k, $0) } }
        #expect(boundaries.count == 2)
        for (k, b) in boundaries {
            #expect(animator.world.owner(of: b.body) == .ground)
            let shapes = animator.world.shapes(of: b.body)
            #expect(!shapes.isEmpty && shapes.allSatisfy { animator.world.owner(of: $0) == .boundary(slot: k) })
            #expect(shapes.allSatisfy { animator.itemRecord(of: $0) == nil })
        }
        #expect(animator.world.owner(of: animator.anchorBody) == .ground)
    }
}
