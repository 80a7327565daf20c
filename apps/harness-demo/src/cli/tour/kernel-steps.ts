import { resultText } from "@tools/registry";
import { callStep, succeededWith, type TourSection } from "./tour-step.js";

const cell = (code: string, description: string, language = "python") => ({
  tool: "eval",
  args: { code, description, language },
});

/** Part 6: eval in a persistent Python kernel (the Python project's .venv) and a JavaScript one. */
export const kernelTourSection: TourSection = {
  title: "eval: a persistent Python kernel and a JavaScript one",
  steps: [
    callStep(
      "a DataFrame as a table (the first cell starts the kernel from python/.venv)",
      cell(
        "import pandas as pd\nsales = pd.read_csv('python/sales.csv')\nsales['revenue'] = sales.units * sales.price\nsales.groupby('region')[['units', 'revenue']].sum()",
        "load the sales data and total it per region",
      ),
      (result) => {
        const verdict = succeededWith(/north\s+27\s+256\.5/)(result);
        return verdict;
      },
    ),
    callStep(
      "a matplotlib figure comes back as a PNG",
      cell(
        "import matplotlib.pyplot as plt\nfig, ax = plt.subplots(figsize=(4, 2.5))\ntotals = sales.groupby('region').revenue.sum()\nax.bar(totals.index, totals.values, color='#4a7bd0')\nax.set_title('revenue per region')\nfig",
        "plot the revenue of each region as bars",
      ),
      (result) => {
        const image = result.content.find((part) => part.type === "image");
        if (result.isError) return `expected success, got ${result.error?.code ?? "an error"}`;
        return image?.type === "image" && image.mimeType === "image/png" ? true : "no PNG image part";
      },
    ),
    callStep(
      'tool("read", …) from a cell: the cell calls back into the registry',
      cell(
        "text = tool('read', {'path': 'src/greet.ts', 'limit': 3})\nlines = text.splitlines()\nprint('read through the bridge:', lines[0])\nlines[1]",
        "read a file through the harness's read tool",
      ),
      succeededWith("read through the bridge: 1\t/** A greeting for one person. */"),
    ),
    callStep(
      "%cd and !cmd (the shell escape runs the harness's shell tool in the run's folder)",
      cell(
        "%cd python\nimport os\nprint(sorted(name for name in os.listdir() if name.endswith('.py')))\n%cd ..\n!ls python",
        "move into the Python project and list its files",
      ),
      (result) => {
        const verdict = succeededWith("['report.py', 'stats.py']")(result);
        if (verdict !== true) return verdict;
        return resultText(result).includes("sales.csv") ? true : "!ls python did not list sales.csv";
      },
    ),
    callStep(
      "a JavaScript cell in its own persistent interpreter",
      cell(
        "const prices = [9.5, 8, 11];\nconst cheapest = Math.min(...prices);\n`cheapest ${cheapest}, mean ${(prices.reduce((a, b) => a + b) / prices.length).toFixed(2)}`",
        "compute over a few prices in JavaScript",
        "javascript",
      ),
      succeededWith("cheapest 8, mean 9.50"),
    ),
  ],
};
