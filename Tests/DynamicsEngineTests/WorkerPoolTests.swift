import DynamicsEngine
import Testing

@Suite struct WorkerPoolTests {
    /// A world stepped on three threads owns two worker threads; dropping the world ends them
    /// (the pool's deinit stops and joins them), so a server that makes and drops worlds does not
    /// accumulate threads.
    @Test func droppingAWorldEndsItsWorkerThreads() {
        var def = WorldDef()
        def.workerCount = 3
        var world: World? = World(def: def)
        let counter = world!.workerThreadCounter
        for k in 0..<40 { _ = addBox(world!, at: Vec2(Float(k % 8) * 30, Float(k / 8) * -30), half: Vec2(10, 10)) }
        _ = addBox(world!, .static, at: Vec2(0, 200), half: Vec2(400, 10))
        run(world!, steps: 30)
        #expect(counter() == 2)
        world = nil
        #expect(counter() == 0)
    }
}
