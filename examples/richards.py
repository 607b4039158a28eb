"""Richards: Martin Richards' operating-system simulation (pyperformance's bm_richards), with
annotations. Tasks are objects of Task's subclasses, each with its own fn(), and records of
TaskRec's subclasses; the scheduler calls them through the base classes.

Based on the Python version in pyperformance, after a Java version by Mario Wolczko (Sun
Microsystems, 1995), from the C++ and Smalltalk versions by L Peter Deutsch, of Martin Richards'
BCPL original (Cambridge, 1981).
"""
from typing import Optional

I_IDLE = 1
I_WORK = 2
I_HANDLERA = 3
I_HANDLERB = 4
I_DEVA = 5
I_DEVB = 6

K_DEV = 1000
K_WORK = 1001

BUFSIZE = 4

TASKTABSIZE = 10


class Packet:
    def __init__(self, l: Optional["Packet"], i: int, k: int):
        self.link: Optional[Packet] = l
        self.ident = i
        self.kind = k
        self.datum = 0
        self.data: list[int] = [0] * BUFSIZE

    def append_to(self, lst: Optional["Packet"]) -> "Packet":
        self.link = None
        if lst is None:
            return self
        p = lst
        nxt = p.link
        while nxt is not None:
            p = nxt
            nxt = p.link
        p.link = self
        return lst


class TaskRec:
    pass


class DeviceTaskRec(TaskRec):
    def __init__(self):
        self.pending: Optional[Packet] = None


class IdleTaskRec(TaskRec):
    def __init__(self):
        self.control = 1
        self.count = 10000


class HandlerTaskRec(TaskRec):
    def __init__(self):
        self.work_in: Optional[Packet] = None
        self.device_in: Optional[Packet] = None

    def work_in_add(self, p: Packet) -> Packet:
        self.work_in = p.append_to(self.work_in)
        return self.work_in

    def device_in_add(self, p: Packet) -> Packet:
        self.device_in = p.append_to(self.device_in)
        return self.device_in


class WorkerTaskRec(TaskRec):
    def __init__(self):
        self.destination = I_HANDLERA
        self.count = 0


class TaskState:
    def __init__(self):
        self.packet_pending = True
        self.task_waiting = False
        self.task_holding = False

    def packet_pending_state(self) -> "TaskState":
        self.packet_pending = True
        self.task_waiting = False
        self.task_holding = False
        return self

    def waiting(self) -> "TaskState":
        self.packet_pending = False
        self.task_waiting = True
        self.task_holding = False
        return self

    def running(self) -> "TaskState":
        self.packet_pending = False
        self.task_waiting = False
        self.task_holding = False
        return self

    def waiting_with_packet(self) -> "TaskState":
        self.packet_pending = True
        self.task_waiting = True
        self.task_holding = False
        return self

    def is_packet_pending(self) -> bool:
        return self.packet_pending

    def is_task_waiting(self) -> bool:
        return self.task_waiting

    def is_task_holding(self) -> bool:
        return self.task_holding

    def is_task_holding_or_waiting(self) -> bool:
        return self.task_holding or (not self.packet_pending and self.task_waiting)

    def is_waiting_with_packet(self) -> bool:
        return self.packet_pending and self.task_waiting and not self.task_holding


class TaskWorkArea:
    def __init__(self):
        self.task_tab: list[Optional["Task"]] = [None] * TASKTABSIZE
        self.task_list: Optional["Task"] = None
        self.hold_count = 0
        self.qpkt_count = 0


task_work_area = TaskWorkArea()


class Task(TaskState):
    def __init__(self, i: int, p: int, w: Optional[Packet], initial_state: TaskState, r: TaskRec):
        self.link: Optional[Task] = task_work_area.task_list
        self.ident = i
        self.priority = p
        self.input: Optional[Packet] = w
        self.packet_pending = initial_state.is_packet_pending()
        self.task_waiting = initial_state.is_task_waiting()
        self.task_holding = initial_state.is_task_holding()
        self.handle: TaskRec = r
        task_work_area.task_list = self
        task_work_area.task_tab[i] = self

    def fn(self, pkt: Optional[Packet], r: TaskRec) -> Optional["Task"]:
        raise NotImplementedError

    def add_packet(self, p: Packet, old: "Task") -> "Task":
        if self.input is None:
            self.input = p
            self.packet_pending = True
            if self.priority > old.priority:
                return self
        else:
            p.append_to(self.input)
        return old

    def run_task(self) -> Optional["Task"]:
        if self.is_waiting_with_packet():
            msg = self.input
            assert msg is not None
            self.input = msg.link
            if self.input is None:
                self.running()
            else:
                self.packet_pending_state()
        else:
            msg = None
        return self.fn(msg, self.handle)

    def wait_task(self) -> "Task":
        self.task_waiting = True
        return self

    def hold(self) -> Optional["Task"]:
        task_work_area.hold_count += 1
        self.task_holding = True
        return self.link

    def release(self, i: int) -> "Task":
        t = self.findtcb(i)
        t.task_holding = False
        if t.priority > self.priority:
            return t
        return self

    def qpkt(self, pkt: Packet) -> "Task":
        t = self.findtcb(pkt.ident)
        task_work_area.qpkt_count += 1
        pkt.link = None
        pkt.ident = self.ident
        return t.add_packet(pkt, self)

    def findtcb(self, id: int) -> "Task":
        t = task_work_area.task_tab[id]
        if t is None:
            raise Exception("Bad task id %d" % id)
        return t


class DeviceTask(Task):
    def fn(self, pkt: Optional[Packet], r: TaskRec) -> Optional[Task]:
        d = r
        assert isinstance(d, DeviceTaskRec)
        if pkt is None:
            pkt = d.pending
            if pkt is None:
                return self.wait_task()
            d.pending = None
            return self.qpkt(pkt)
        d.pending = pkt
        return self.hold()


class HandlerTask(Task):
    def fn(self, pkt: Optional[Packet], r: TaskRec) -> Optional[Task]:
        h = r
        assert isinstance(h, HandlerTaskRec)
        if pkt is not None:
            if pkt.kind == K_WORK:
                h.work_in_add(pkt)
            else:
                h.device_in_add(pkt)
        work = h.work_in
        if work is None:
            return self.wait_task()
        count = work.datum
        if count >= BUFSIZE:
            h.work_in = work.link
            return self.qpkt(work)
        dev = h.device_in
        if dev is None:
            return self.wait_task()
        h.device_in = dev.link
        dev.datum = work.data[count]
        work.datum = count + 1
        return self.qpkt(dev)


class IdleTask(Task):
    def fn(self, pkt: Optional[Packet], r: TaskRec) -> Optional[Task]:
        i = r
        assert isinstance(i, IdleTaskRec)
        i.count -= 1
        if i.count == 0:
            return self.hold()
        elif i.control & 1 == 0:
            i.control //= 2
            return self.release(I_DEVA)
        i.control = i.control // 2 ^ 0xD008
        return self.release(I_DEVB)


A = ord("A")


class WorkTask(Task):
    def fn(self, pkt: Optional[Packet], r: TaskRec) -> Optional[Task]:
        w = r
        assert isinstance(w, WorkerTaskRec)
        if pkt is None:
            return self.wait_task()
        if w.destination == I_HANDLERA:
            dest = I_HANDLERB
        else:
            dest = I_HANDLERA
        w.destination = dest
        pkt.ident = dest
        pkt.datum = 0
        for i in range(BUFSIZE):
            w.count += 1
            if w.count > 26:
                w.count = 1
            pkt.data[i] = A + w.count - 1
        return self.qpkt(pkt)


def schedule():
    t = task_work_area.task_list
    while t is not None:
        if t.is_task_holding_or_waiting():
            t = t.link
        else:
            t = t.run_task()


def run(iterations: int) -> bool:
    for _ in range(iterations):
        task_work_area.hold_count = 0
        task_work_area.qpkt_count = 0
        IdleTask(I_IDLE, 1, None, TaskState().running(), IdleTaskRec())
        wkq = Packet(None, 0, K_WORK)
        wkq = Packet(wkq, 0, K_WORK)
        WorkTask(I_WORK, 1000, wkq, TaskState().waiting_with_packet(), WorkerTaskRec())
        wkq = Packet(None, I_DEVA, K_DEV)
        wkq = Packet(wkq, I_DEVA, K_DEV)
        wkq = Packet(wkq, I_DEVA, K_DEV)
        HandlerTask(I_HANDLERA, 2000, wkq, TaskState().waiting_with_packet(), HandlerTaskRec())
        wkq = Packet(None, I_DEVB, K_DEV)
        wkq = Packet(wkq, I_DEVB, K_DEV)
        wkq = Packet(wkq, I_DEVB, K_DEV)
        HandlerTask(I_HANDLERB, 3000, wkq, TaskState().waiting_with_packet(), HandlerTaskRec())
        DeviceTask(I_DEVA, 4000, None, TaskState().waiting(), DeviceTaskRec())
        DeviceTask(I_DEVB, 5000, None, TaskState().waiting(), DeviceTaskRec())
        schedule()
        if task_work_area.hold_count != 9297 or task_work_area.qpkt_count != 23246:
            return False
    return True


N = 2  # benchmark size: 100


def main():
    ok = run(N)
    print("richards", N, "iterations:", "ok" if ok else "wrong",
          task_work_area.hold_count, task_work_area.qpkt_count)


if __name__ == "__main__":
    main()
