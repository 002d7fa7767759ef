import DynamicsEngine
import Foundation
import Testing

/// The block solve of a manifold's two points (`WorldDef.blockSolve`, Box2D 2.x's block solver).
@Suite struct BlockSolveTests {
    /// A 100 pt box falls 300 pt without friction onto a static ground and lands flat. By symmetry
    /// nothing can turn it: both ends of its bottom face must take the same impulse. Solved one
    /// point after the other (Box2D v3) it turns by about 10⁻³ rad as it lands; solved as one block
    /// it stays flat to rounding (under 10⁻⁶ rad) and rests level at y = −50 (its centre 50 pt
    /// above the ground's top; y grows down, the ground's top is at 0).
    @Test(arguments: [false, true])
    func aBoxDroppedFlatLandsFlat(block: Bool) {
        var d = WorldDef()
        d.blockSolve = block
        let w = World(def: d)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50), friction: 0)
        let box = addBox(w, at: Vec2(0, -350), half: Vec2(50, 50), friction: 0)
        var largestTurn: Float = 0
        for _ in 0..<120 {
            w.step(dt: 1.0 / 60, substeps: 4)
            largestTurn = max(largestTurn, abs(w.angle(box)))
        }
        if block {
            #expect(largestTurn < 1e-6)
        } else {
            #expect(largestTurn > 1e-4, "the sequential solve no longer turns a landing box: the block solve's reason is gone")
        }
        #expect(abs(w.position(box).y + 50) < 0.1)
        #expect(abs(w.position(box).x) < (block ? 1e-4 : 0.5))
    }
}
