package testdex;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * TestdexCoverageListener cuts JaCoCo's execution data at every test
 * boundary (testdex run --coverage). The JUnit Platform launcher loads it
 * through ServiceLoader from the folder testdex adds to Surefire's test
 * classpath; JaCoCo's agent (jacoco-maven-plugin's prepare-agent) records.
 * At each start and end of a test or container it takes the agent's data
 * with a reset (RT.getAgent().getExecutionData(true)) and files what ran
 * since the last boundary under the innermost running test or container:
 * a test's own body, or a class's @BeforeAll and static set-up, which the
 * reader adds to each test below it. Only the project's classes (loaded
 * from a folder, not a jar) with an executed probe are kept. Records go to EXEC/NAME.bin, one
 * file per JVM, flushed per record, in the format TestdexCoverageReader
 * reads, EXEC being the system property testdex.jacoco.exec, else the
 * variable TESTDEX_JACOCO_EXEC, else exec beside this listener's folder
 * (testdex sets both: the compiled listener is shared by runs). Without
 * the agent it writes EXEC/NAME.noagent with the reason,
 * and the tests run as usual. Tests running in parallel in one JVM share
 * their data (the agent's counters are global).
 *
 * It is compiled with testdex's stand-ins of the few JUnit types it uses
 * (javac -implicit:none: their classes are not written), so it links
 * against whatever JUnit Platform 1.x the project runs.
 */
public final class TestdexCoverageListener implements TestExecutionListener {
    private Object agent;
    private Method getData;
    private DataOutputStream out;
    private final Deque<TestIdentifier> running = new ArrayDeque<TestIdentifier>();
    private final Map<String, TestIdentifier> byId = new HashMap<String, TestIdentifier>();
    private final Map<String, Boolean> ours = new HashMap<String, Boolean>();

    public TestdexCoverageListener() {
        try {
            String to = System.getProperty("testdex.jacoco.exec");
            if (to == null || to.isEmpty()) {
                to = System.getenv("TESTDEX_JACOCO_EXEC");
            }
            File dir;
            if (to != null && !to.isEmpty()) {
                dir = new File(to);
            } else {
                File self = new File(TestdexCoverageListener.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                dir = new File(self.getParentFile(), "exec");
            }
            dir.mkdirs();
            String name = Long.toHexString(System.nanoTime()) + "-" + Integer.toHexString(new Random().nextInt());
            try {
                Class<?> rt = Class.forName("org.jacoco.agent.rt.RT", true, ClassLoader.getSystemClassLoader());
                agent = rt.getMethod("getAgent").invoke(null);
                getData = Class.forName("org.jacoco.agent.rt.IAgent", true, ClassLoader.getSystemClassLoader())
                        .getMethod("getExecutionData", boolean.class);
            } catch (Throwable e) {
                agent = null;
                FileOutputStream f = new FileOutputStream(new File(dir, name + ".noagent"));
                f.write(("JaCoCo's agent is not in the test JVM: " + e).getBytes("UTF-8"));
                f.close();
                return;
            }
            out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(new File(dir, name + ".bin"))));
        } catch (Exception e) {
            System.err.println("testdex: coverage listener: " + e);
        }
    }

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan plan) {
        take(); // what ran before the tests (discovery) belongs to none
    }

    @Override
    public synchronized void executionStarted(TestIdentifier id) {
        flush();
        byId.put(id.getUniqueId(), id);
        running.push(id);
    }

    @Override
    public synchronized void executionFinished(TestIdentifier id, TestExecutionResult result) {
        flush();
        running.remove(id);
    }

    /** take returns the agent's data since the last call and resets it. */
    private byte[] take() {
        if (agent == null || out == null) {
            return null;
        }
        try {
            return (byte[]) getData.invoke(agent, true);
        } catch (Exception e) {
            return null;
        }
    }

    /** flush files the data since the last boundary under the innermost running test or container. */
    private void flush() {
        byte[] raw = take();
        TestIdentifier owner = running.peek();
        if (raw == null || owner == null) {
            return;
        }
        try {
            List<Object[]> classes = executed(raw);
            if (classes.isEmpty() && !owner.isTest()) {
                return;
            }
            out.writeUTF(owner.getUniqueId());
            out.writeBoolean(owner.isTest());
            out.writeUTF(className(owner));
            out.writeUTF(owner.getLegacyReportingName());
            out.writeInt(classes.size());
            for (Object[] c : classes) {
                out.writeLong((Long) c[0]);
                out.writeUTF((String) c[1]);
                out.writeInt((Integer) c[2]);
                byte[] bits = (byte[]) c[3];
                out.writeInt(bits.length);
                out.write(bits);
            }
            out.flush();
        } catch (IOException e) {
            System.err.println("testdex: coverage listener: " + e);
            out = null;
        }
    }

    /** className is the class of the test's method, or of its nearest ancestor with one. */
    private String className(TestIdentifier id) {
        for (TestIdentifier t = id; t != null; t = t.getParentId().isPresent() ? byId.get(t.getParentId().get()) : null) {
            TestSource s = t.getSource().orElse(null);
            if (s instanceof MethodSource) {
                return ((MethodSource) s).getClassName();
            }
            if (s instanceof ClassSource) {
                return ((ClassSource) s).getClassName();
            }
        }
        return "";
    }

    /**
     * executed reads JaCoCo's exec format (header 0x01, sessions 0x10,
     * classes 0x11: id, VM name, probes as a var-int count and bits) and
     * returns the project's classes with an executed probe: {id, name,
     * count, bits}.
     */
    private List<Object[]> executed(byte[] raw) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(raw));
        List<Object[]> out = new ArrayList<Object[]>();
        for (int b = in.read(); b >= 0; b = in.read()) {
            switch (b) {
            case 0x01:
                in.readChar();
                in.readChar();
                break;
            case 0x10:
                in.readUTF();
                in.readLong();
                in.readLong();
                break;
            case 0x11:
                long id = in.readLong();
                String name = in.readUTF();
                int n = varInt(in);
                byte[] bits = new byte[(n + 7) / 8];
                in.readFully(bits);
                for (byte x : bits) {
                    if (x != 0 && ours(name)) {
                        out.add(new Object[] {id, name, n, bits});
                        break;
                    }
                }
                break;
            default:
                throw new IOException("unknown JaCoCo block " + b);
            }
        }
        return out;
    }

    /**
     * ours reports whether a class was loaded from a folder (target/classes,
     * target/test-classes, a sibling module's) rather than from a jar or the
     * JDK: only those can be mapped to the project's sources.
     */
    private boolean ours(String vmName) {
        Boolean b = ours.get(vmName);
        if (b == null) {
            URL u = ClassLoader.getSystemResource(vmName + ".class");
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            if (u == null && cl != null) {
                u = cl.getResource(vmName + ".class");
            }
            b = u != null && "file".equals(u.getProtocol());
            ours.put(vmName, b);
        }
        return b;
    }

    private static int varInt(DataInputStream in) throws IOException {
        int v = in.readByte() & 0xFF;
        if ((v & 0x80) == 0) {
            return v;
        }
        return (v & 0x7F) | (varInt(in) << 7);
    }
}
