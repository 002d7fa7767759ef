@testable import DynamicsEngine
import Testing

/// The world's parts keep their own invariants (`BodySets`, `BroadPhase`): checked here on the
/// parts themselves, and through a world whose shapes and bodies change between steps.
@Suite struct WorldPartsTests {
    /// Taking a body out of the middle of the awake list moves the last one into its place (O(1)),
    /// and an island slot freed by its last member is reused before the list grows.
    @Test func bodySetsSwapRemoveAndReuseIslandSlots() {
        var sets = BodySets()
        for b: Int32 in [10, 11, 12, 13] { _ = sets.appendAwake(b) }
        #expect(sets.removeAwake(at: 1) == 13)   // 13 moves into index 1
        #expect(sets.awake == [10, 13, 12])
        #expect(sets.removeAwake(at: 2) == nil)   // the last entry: nothing moves
        #expect(sets.awake == [10, 13])

        #expect(sets.newSleepIsland([1, 2]) == 0)
        #expect(sets.newSleepIsland([3]) == 1)
        sets.remove(3, fromSleepIsland: 1)
        #expect(sets.sleepIslands[1].isEmpty && sets.freeSleepIslands == [1])
        #expect(sets.newSleepIsland([4, 5]) == 1)   // the freed slot, not a third one
        #expect(sets.takeSleepIsland(0) == [1, 2])
        #expect(sets.sleepIslands == [[], [4, 5]] && sets.freeSleepIslands == [0])
    }

    /// Every note that the non-static shapes changed raises the version the query grid watches,
    /// even while the lists are already waiting for a rebuild; the rebuild clears the flag only.
    @Test func movableShapeNotesRaiseTheShapeListVersion() {
        var broadPhase = BroadPhase()
        #expect(broadPhase.proxyListDirty && broadPhase.shapeListVersion == 0)
        broadPhase.noteMovableShapesChanged()
        broadPhase.noteMovableShapesChanged()
        #expect(broadPhase.shapeListVersion == 2)
        broadPhase.rebuildProxyLists(shapes: SlotPool<Shape>(), bodies: SlotPool<Body>())
        #expect(!broadPhase.proxyListDirty && broadPhase.shapeListVersion == 2)
    }

    /// A world whose shapes, body types and filters change between steps, queried in between:
    /// the parts stay consistent with the pools (`World.validate`, run after every step, and the
    /// rebuild comparison of the static layers and ghosts), and each change of the non-static
    /// shapes reaches the proxy lists.
    @Test func partsFollowShapeAndBodyChanges() {
        var def = WorldDef()
        def.validate = true
        let world = World(def: def)
        var groundDef = BodyDef()
        groundDef.type = .static
        let ground = world.createBody(groundDef)
        for k in 0..<4 {
            let x = Float(k) * 100
            _ = world.createShape(on: ground, ShapeDef(), .segment(Vec2(x, 0), Vec2(x + 100, 0)))
        }
        var boxes: [BodyID] = []
        for k in 0..<6 {
            var bd = BodyDef()
            bd.position = Vec2(Float(k) * 50 + 25, -30)
            let b = world.createBody(bd)
            _ = world.createShape(on: b, ShapeDef(), .box(halfWidth: 10, halfHeight: 10, center: .zero, angle: 0))
            boxes.append(b)
        }
        for step in 0..<120 {
            world.step(dt: 1 / 60, substeps: 4)
            #expect(world.validationErrors.isEmpty, "step \(step): \(world.validationErrors)")
            _ = world.shapes(containing: Vec2(75, -10))
            if step == 30 { world.setBodyType(boxes[2], .kinematic) }
            if step == 45 { #expect(world.broadPhase.kinematicProxies.count == 1) }   // rebuilt at step 31
            if step == 60 { world.destroyBody(boxes[0]) }
            if step == 90 { world.setBodyType(boxes[2], .dynamic) }
        }
        #expect(world.broadPhase.movableProxies.count == 5)   // five boxes left, all dynamic
        #expect(world.broadPhase.kinematicProxies.isEmpty)
        #expect(world.sets.awake.count + world.sets.sleepIslands.reduce(0) { $0 + $1.count } == 5)
        #expect(world.staticIndexErrors().isEmpty)
    }
}
