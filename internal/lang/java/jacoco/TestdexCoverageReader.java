import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jacoco.cli.internal.core.analysis.Analyzer;
import org.jacoco.cli.internal.core.analysis.CoverageBuilder;
import org.jacoco.cli.internal.core.analysis.IClassCoverage;
import org.jacoco.cli.internal.core.data.ExecutionData;
import org.jacoco.cli.internal.core.data.ExecutionDataStore;

/**
 * TestdexCoverageReader turns the records TestdexCoverageListener wrote
 * into each test's executed lines per source file, one line per test on
 * stdout: "testdex-covered\t" and a JSON object {scope, name, files:
 * [{file, lines: [[start, end], ...]}]}; "testdex-covnote\t" and a line
 * says why coverage is missing (no listener ran, no agent). Run in Java's source-file mode
 * with JaCoCo's CLI jar (its shaded core: Analyzer, CoverageBuilder) on
 * the class path:
 *
 *   java -cp org.jacoco.cli-VERSION-nodeps.jar TestdexCoverageReader.java EXECDIR PROJECTDIR [SRCROOT...]
 *
 * A test gets its own records and those of its ancestors (its class's
 * set-up). Class files come from every target/classes and
 * target/test-classes below PROJECTDIR, as they are after the run (the
 * agent's class ids must match them, else the class counts as not run);
 * a class's source is PACKAGE/SourceFile under its module's src/main/java,
 * src/test/java or a SRCROOT. A line ran when one of its instructions did.
 * It always exits 0: what it cannot read it says on stderr.
 */
public class TestdexCoverageReader {
    static final class Rec {
        String uid, cls, name;
        boolean test;
        List<ExecutionData> data = new ArrayList<ExecutionData>();
    }

    static final Map<String, File> classFiles = new HashMap<String, File>(); // VM name -> class file
    static final Map<String, File> moduleOf = new HashMap<String, File>();
    static final Map<String, byte[]> bytes = new HashMap<String, byte[]>();
    static final Map<String, Object[]> memo = new HashMap<String, Object[]>(); // class+probes -> {file, lines}
    static final List<File> extraRoots = new ArrayList<File>();

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        try {
            run(args, out);
        } catch (Throwable e) {
            System.err.println("testdex: reading JaCoCo's coverage: " + e);
        }
        out.flush();
    }

    static void run(String[] args, PrintStream out) throws IOException {
        File execDir = new File(args[0]);
        File project = new File(args[1]);
        for (int i = 2; i < args.length; i++) {
            extraRoots.add(new File(args[i]));
        }
        findClasses(project, 0);
        List<Rec> recs = new ArrayList<Rec>();
        File[] files = execDir.listFiles();
        if (files == null || files.length == 0) {
            out.println("testdex-covnote\tno test JVM loaded testdex's JUnit Platform listener, through which it records JaCoCo's"
                    + " coverage per test: Surefire's JUnit 4 provider loads none (add junit-vintage-engine, or move to JUnit 5,"
                    + " to run the tests through the JUnit Platform)");
            return;
        }
        Arrays.sort(files);
        boolean noagent = false;
        for (File f : files) {
            if (f.getName().endsWith(".noagent")) {
                if (!noagent) {
                    out.println("testdex-covnote\t" + new String(Files.readAllBytes(f.toPath()), "UTF-8")
                            + " (JaCoCo's prepare-agent puts the agent in Surefire's argLine: a pom whose <argLine> leaves out"
                            + " @{argLine} drops it; write <argLine>@{argLine} ...</argLine>)");
                }
                noagent = true;
            } else if (f.getName().endsWith(".bin")) {
                read(f, recs);
            }
        }
        for (Rec r : recs) {
            if (!r.test) {
                continue;
            }
            ExecutionDataStore store = new ExecutionDataStore();
            for (Rec a : recs) {
                if (a == r || (!a.test && r.uid.startsWith(a.uid + "/"))) {
                    for (ExecutionData d : a.data) {
                        store.visitClassExecution(new ExecutionData(d.getId(), d.getName(), d.getProbes().clone()));
                    }
                }
            }
            out.print("testdex-covered\t");
            out.println(json(r, lines(store)));
        }
    }

    static void read(File f, List<Rec> recs) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(f)))) {
            while (true) {
                Rec r = new Rec();
                try {
                    r.uid = in.readUTF();
                } catch (EOFException e) {
                    return;
                }
                r.test = in.readBoolean();
                r.cls = in.readUTF();
                r.name = in.readUTF();
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    long id = in.readLong();
                    String name = in.readUTF();
                    int count = in.readInt();
                    byte[] bits = new byte[in.readInt()];
                    in.readFully(bits);
                    boolean[] probes = new boolean[count];
                    for (int p = 0; p < count; p++) {
                        probes[p] = (bits[p / 8] & (1 << (p % 8))) != 0;
                    }
                    r.data.add(new ExecutionData(id, name, probes));
                }
                recs.add(r);
            }
        } catch (IOException e) {
            System.err.println("testdex: " + f + ": " + e + " (the test JVM died while writing it?)");
        }
    }

    /** findClasses indexes target/classes and target/test-classes below dir. */
    static void findClasses(File dir, int depth) {
        File[] kids = dir.listFiles();
        if (kids == null || depth > 8) {
            return;
        }
        for (File k : kids) {
            String n = k.getName();
            if (!k.isDirectory() || n.startsWith(".") || n.equals("node_modules") || n.equals("src")) {
                continue;
            }
            if (n.equals("target")) {
                index(new File(k, "classes"), dir, "");
                index(new File(k, "test-classes"), dir, "");
                continue;
            }
            findClasses(k, depth + 1);
        }
    }

    static void index(File dir, File module, String prefix) {
        File[] kids = dir.listFiles();
        if (kids == null) {
            return;
        }
        for (File k : kids) {
            if (k.isDirectory()) {
                index(k, module, prefix + k.getName() + "/");
            } else if (k.getName().endsWith(".class")) {
                String vm = prefix + k.getName().substring(0, k.getName().length() - 6);
                if (!classFiles.containsKey(vm)) {
                    classFiles.put(vm, k);
                    moduleOf.put(vm, module);
                }
            }
        }
    }

    /** lines returns the executed lines per absolute source file. */
    static Map<String, TreeSet<Integer>> lines(ExecutionDataStore store) {
        Map<String, TreeSet<Integer>> out = new TreeMap<String, TreeSet<Integer>>();
        for (ExecutionData d : store.getContents()) {
            Object[] got = analyze(d);
            if (got == null) {
                continue;
            }
            TreeSet<Integer> set = out.get((String) got[0]);
            if (set == null) {
                set = new TreeSet<Integer>();
                out.put((String) got[0], set);
            }
            for (int l : (int[]) got[1]) {
                set.add(l);
            }
        }
        return out;
    }

    /** analyze returns {source file, executed lines} of one class's probes, or null. */
    static Object[] analyze(ExecutionData d) {
        if (!classFiles.containsKey(d.getName())) {
            return null; // a class of the JDK, JUnit or a dependency
        }
        String key = d.getName() + "#" + d.getId() + "#" + Arrays.toString(d.getProbes());
        if (memo.containsKey(key)) {
            return memo.get(key);
        }
        Object[] got = null;
        File cf = classFiles.get(d.getName());
        try {
            if (cf != null) {
                byte[] b = bytes.get(d.getName());
                if (b == null) {
                    b = Files.readAllBytes(cf.toPath());
                    bytes.put(d.getName(), b);
                }
                ExecutionDataStore one = new ExecutionDataStore();
                one.put(d);
                CoverageBuilder builder = new CoverageBuilder();
                new Analyzer(one, builder).analyzeClass(b, cf.getPath());
                for (IClassCoverage cc : builder.getClasses()) {
                    File src = source(moduleOf.get(d.getName()), cc.getPackageName(), cc.getSourceFileName());
                    if (src == null || cc.isNoMatch() || cc.getFirstLine() < 0) {
                        continue;
                    }
                    List<Integer> ls = new ArrayList<Integer>();
                    for (int l = cc.getFirstLine(); l <= cc.getLastLine(); l++) {
                        if (cc.getLine(l).getInstructionCounter().getCoveredCount() > 0) {
                            ls.add(l);
                        }
                    }
                    int[] arr = new int[ls.size()];
                    for (int i = 0; i < arr.length; i++) {
                        arr[i] = ls.get(i);
                    }
                    got = new Object[] {src.getAbsolutePath(), arr};
                }
            }
        } catch (Exception e) {
            System.err.println("testdex: analysing " + d.getName() + ": " + e);
        }
        memo.put(key, got);
        return got;
    }

    static final Map<String, File> sources = new LinkedHashMap<String, File>();

    static File source(File module, String pkg, String file) {
        if (file == null) {
            return null;
        }
        String rel = pkg.isEmpty() ? file : pkg + "/" + file;
        String key = module + "\u0000" + rel;
        if (sources.containsKey(key)) {
            return sources.get(key);
        }
        List<File> roots = new ArrayList<File>();
        roots.add(new File(module, "src/main/java"));
        roots.add(new File(module, "src/test/java"));
        roots.addAll(extraRoots);
        File found = null;
        for (File root : roots) {
            File f = new File(root, rel);
            if (f.isFile()) {
                found = f;
                break;
            }
        }
        sources.put(key, found);
        return found;
    }

    static String json(Rec r, Map<String, TreeSet<Integer>> files) {
        StringBuilder b = new StringBuilder();
        b.append("{\"scope\":").append(str(r.cls)).append(",\"name\":").append(str(r.name)).append(",\"files\":[");
        boolean first = true;
        for (Map.Entry<String, TreeSet<Integer>> e : files.entrySet()) {
            b.append(first ? "" : ",").append("{\"file\":").append(str(e.getKey())).append(",\"lines\":[");
            first = false;
            int start = -1, end = -1;
            boolean firstSpan = true;
            for (int l : e.getValue()) {
                if (start >= 0 && l == end + 1) {
                    end = l;
                    continue;
                }
                if (start >= 0) {
                    b.append(firstSpan ? "" : ",").append('[').append(start).append(',').append(end).append(']');
                    firstSpan = false;
                }
                start = l;
                end = l;
            }
            if (start >= 0) {
                b.append(firstSpan ? "" : ",").append('[').append(start).append(',').append(end).append(']');
            }
            b.append("]}");
        }
        return b.append("]}").toString();
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
