/**
 * Builds the occupation reference data (src/reference/data/occupations/) from the O*NET Database
 * (29.3, May 2025; CC BY 4.0) and the BLS OEWS national estimates (May 2024; US public domain).
 * What the files hold, the rules and the sources: docs/reference/occupations.md.
 *
 *   node --import tsx tools/reference/build-occupations.ts \
 *     --onet <dir with the O*NET files as .tsv or .txt> --oews <national_M2024_dl.tsv> [--out <dir>]
 *
 * Plain Node and fs only. The output depends only on the input files (stable sorts, no dates, no
 * absolute paths), so a rebuild from the same files gives the same bytes.
 *
 * The family mapping (families.tsv) is the reviewed table REVIEWED below plus the reasons for the
 * occupations left out (UNMAPPED); change it here, rebuild, and commit the regenerated files.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Occupation as ServedOccupation } from '../../src/reference/occupations';

const ROOT = path.resolve(__dirname, '..', '..');

// ---------------------------------------------------------------------------------------------
// The reviewed mapping: O*NET-SOC occupation → role family (role-families.json), with a reason.
// ---------------------------------------------------------------------------------------------

/** All 86 occupations of onet-titles.json (earlier review) are kept; the self-check lists the ones added. */
const REVIEWED: ReadonlyArray<readonly [code: string, family: string, reason: string]> = [
  // software_engineering
  ['15-1251.00', 'software_engineering', 'programmers'],
  ['15-1252.00', 'software_engineering', 'software developers: core of the family'],
  ['15-1254.00', 'software_engineering', 'web developers (base title)'],
  ['15-1299.07', 'software_engineering', 'blockchain developers are software engineers'],
  // data_science
  ['15-2051.00', 'data_science', 'data scientists'],
  ['15-2051.01', 'data_science', 'BI analysts (base title)'],
  ['15-2041.00', 'data_science', 'statisticians'],
  ['15-2041.01', 'data_science', 'biostatisticians (alias in the family)'],
  ['15-1221.00', 'data_science', 'CS and AI research scientists (Research Scientist)'],
  ['15-2031.00', 'data_science', 'operations research: quantitative modelling'],
  ['15-2021.00', 'data_science', 'mathematicians: computational and research scientists'],
  ['13-2099.01', 'data_science', 'quantitative analysts (base title)'],
  // data_engineering
  ['15-1243.00', 'data_engineering', 'database and data architects'],
  ['15-1243.01', 'data_engineering', 'data warehouse engineers (base title)'],
  ['15-1242.00', 'data_engineering', 'DBAs (alias in the family)'],
  // design
  ['15-1255.00', 'design', 'UX, UI and web designers'],
  ['27-1024.00', 'design', 'graphic designers (base title)'],
  ['27-1011.00', 'design', 'art directors: senior visual designers (alias in the family)'],
  ['27-1021.00', 'design', 'industrial designers: physical-product designers'],
  // devops_sre
  ['15-1244.00', 'devops_sre', 'systems and network administrators: infrastructure'],
  ['15-1299.08', 'devops_sre', 'systems engineers and infrastructure architects'],
  ['15-1241.00', 'devops_sre', 'network architects and engineers'],
  ['15-1241.01', 'devops_sre', 'telecom network engineers (VoIP, network design), as their parent'],
  ['15-1231.00', 'devops_sre', 'network support and NOC: network operations'],
  ['11-3021.00', 'devops_sre', 'IT managers and directors, CIOs (aliases in the family)'],
  // security
  ['15-1212.00', 'security', 'information security analysts'],
  ['15-1299.04', 'security', 'penetration testers (base title)'],
  ['15-1299.05', 'security', 'information security engineers'],
  ['15-1299.06', 'security', 'digital forensics and incident response'],
  // qa_testing
  ['15-1253.00', 'qa_testing', 'software QA analysts and testers'],
  // sales
  ['41-4011.00', 'sales', 'B2B sales reps, technical products'],
  ['41-4011.07', 'sales', 'solar sales reps: B2B/B2C technical sales, as their parent'],
  ['41-4012.00', 'sales', 'B2B sales reps'],
  ['41-3091.00', 'sales', 'services sales reps (account executives)'],
  ['41-3011.00', 'sales', 'advertising sales: account executives selling media'],
  ['41-3021.00', 'sales', 'insurance sales agents (Insurance is a family industry)'],
  ['41-9031.00', 'sales', 'sales engineers (base title)'],
  ['41-9041.00', 'sales', 'telesales and inside sales reps'],
  ['41-1012.00', 'sales', 'supervisors of B2B sales teams'],
  ['11-2022.00', 'sales', 'sales managers'],
  // marketing
  ['13-1161.00', 'marketing', 'marketing specialists and market research analysts'],
  ['13-1161.01', 'marketing', 'SEO and SEM strategists'],
  ['11-2021.00', 'marketing', 'marketing managers'],
  ['11-2011.00', 'marketing', 'advertising and promotions managers'],
  ['11-2032.00', 'marketing', 'PR managers (PR is a marketing area)'],
  ['27-3031.00', 'marketing', 'PR and communications specialists'],
  // 27-3043.00 Writers and Authors: no family (authors and editors are a trade of their own; copywriters are reached through marketing's vocabulary).
  // customer_success
  ['43-4051.00', 'customer_success', 'customer service representatives'],
  ['15-1232.00', 'customer_success', 'help desk and IT user support'],
  // finance
  ['13-2051.00', 'finance', 'financial and investment analysts'],
  ['13-2031.00', 'finance', 'budget analysts: FP&A'],
  ['13-2041.00', 'finance', 'credit analysts (base title)'],
  ['13-2054.00', 'finance', 'financial risk analysts'],
  ['11-3031.00', 'finance', 'finance managers and CFOs'],
  ['11-3031.01', 'finance', 'treasurers and controllers'],
  ['11-3031.03', 'finance', 'investment fund and portfolio managers'],
  // accounting
  ['13-2011.00', 'accounting', 'accountants and auditors'],
  ['43-3031.00', 'accounting', 'bookkeepers (base title)'],
  ['43-3051.00', 'accounting', 'payroll specialists (base title)'],
  ['43-3021.00', 'accounting', 'billing and accounts receivable clerks'],
  ['13-2082.00', 'accounting', 'tax preparers (alias in the family)'],
  // hr_people
  ['13-1071.00', 'hr_people', 'HR specialists and generalists (recruiters too: no O*NET recruiter occupation)'],
  ['11-3121.00', 'hr_people', 'HR managers'],
  ['13-1141.00', 'hr_people', 'compensation and benefits analysts'],
  ['11-3111.00', 'hr_people', 'compensation and benefits managers'],
  ['13-1151.00', 'hr_people', 'L&D and training specialists'],
  ['11-3131.00', 'hr_people', 'L&D managers'],
  ['43-4161.00', 'hr_people', 'HR assistants and coordinators'],
  ['13-1075.00', 'hr_people', 'labor and employee relations'],
  ['13-1041.03', 'hr_people', 'EEO and affirmative action officers: HR compliance'],
  ['19-3032.00', 'hr_people', 'I-O psychologists: organizational development, assessment'],
  // legal
  ['23-1011.00', 'legal', 'lawyers and counsel'],
  ['23-1012.00', 'legal', 'judicial law clerks: law graduates (law clerk alias)'],
  ['23-1021.00', 'legal', 'administrative law judges: lawyers by training'],
  ['23-1022.00', 'legal', 'arbitrators and mediators: dispute resolution'],
  ['23-1023.00', 'legal', 'judges and magistrates: lawyers by training'],
  ['23-2011.00', 'legal', 'paralegals and legal assistants'],
  ['23-2093.00', 'legal', 'title examiners: legal research on property records'],
  ['23-2099.00', 'legal', 'other legal support'],
  ['43-6012.00', 'legal', 'legal secretaries (alias in the family)'],
  ['13-1041.00', 'legal', 'compliance officers'],
  ['13-1041.07', 'legal', 'regulatory affairs specialists (alias in the family)'],
  ['11-9199.01', 'legal', 'regulatory affairs managers'],
  ['11-9199.02', 'legal', 'compliance managers'],
  ['13-2061.00', 'legal', 'bank examiners, AML/BSA and compliance analysts'],
  ['13-2099.04', 'legal', 'fraud, AML and KYC analysts: financial crime compliance'],
  // operations
  ['11-1021.00', 'operations', 'general and operations managers'],
  ['13-1111.00', 'operations', 'management analysts: strategy and ops consulting'],
  ['13-1199.00', 'operations', 'business operations specialists'],
  ['13-1199.04', 'operations', 'business continuity and change management'],
  ['15-1211.00', 'operations', 'business and systems analysts (Business Analyst)'],
  // supply_chain
  ['13-1081.00', 'supply_chain', 'logisticians'],
  ['13-1081.01', 'supply_chain', 'logistics engineers'],
  ['13-1081.02', 'supply_chain', 'logistics analysts'],
  ['11-3071.00', 'supply_chain', 'logistics, warehouse and distribution managers'],
  ['11-3071.04', 'supply_chain', 'supply chain managers'],
  ['11-3061.00', 'supply_chain', 'purchasing and procurement managers'],
  ['13-1021.00', 'supply_chain', 'buyers of farm products (Food Production is a family industry)'],
  ['13-1022.00', 'supply_chain', 'wholesale and retail buyers'],
  ['13-1023.00', 'supply_chain', 'purchasing agents: procurement'],
  ['13-1041.08', 'supply_chain', 'customs brokers: customs compliance'],
  ['43-3061.00', 'supply_chain', 'procurement clerks: purchasing assistants and coordinators'],
  ['43-5011.00', 'supply_chain', 'freight agents and logistics coordinators'],
  ['43-5011.01', 'supply_chain', 'freight forwarders, import/export coordinators'],
  ['43-5061.00', 'supply_chain', 'production and material planners, expediters'],
  // healthcare_nursing
  ['29-1141.00', 'healthcare_nursing', 'registered nurses (incl. public health and school nurses)'],
  ['29-1141.01', 'healthcare_nursing', 'acute care nurses'],
  ['29-1141.02', 'healthcare_nursing', 'psychiatric advanced practice nurses'],
  ['29-1141.03', 'healthcare_nursing', 'critical care and ICU nurses'],
  ['29-1141.04', 'healthcare_nursing', 'clinical nurse specialists (base title)'],
  ['29-1171.00', 'healthcare_nursing', 'nurse practitioners'],
  ['29-1151.00', 'healthcare_nursing', 'nurse anesthetists (CRNA)'],
  ['29-1161.00', 'healthcare_nursing', 'nurse midwives (APRN)'],
  ['29-2061.00', 'healthcare_nursing', 'LPNs and LVNs (base title)'],
  ['25-1072.00', 'healthcare_nursing', 'nurse educators are licensed nurses (alias in the family)'],
  // mechanical_engineering
  ['17-2141.00', 'mechanical_engineering', 'mechanical engineers'],
  ['17-2141.01', 'mechanical_engineering', 'fuel cell engineers, as their parent'],
  ['17-2141.02', 'mechanical_engineering', 'automotive engineers'],
  ['17-2112.00', 'mechanical_engineering', 'industrial and process engineers'],
  ['17-2112.02', 'mechanical_engineering', 'validation, quality and reliability engineers in manufacturing'],
  ['17-2112.03', 'mechanical_engineering', 'manufacturing engineers (base title)'],
  ['17-2011.00', 'mechanical_engineering', 'aerospace engineers (alias in the family)'],
  ['17-2199.03', 'mechanical_engineering', 'energy and HVAC engineers'],
  ['17-2199.05', 'mechanical_engineering', 'mechatronics engineers (alias in the family)'],
  ['17-2199.08', 'mechanical_engineering', 'robotics engineers, like mechatronics'],
  // electrical_engineering
  ['17-2071.00', 'electrical_engineering', 'electrical engineers'],
  ['17-2072.00', 'electrical_engineering', 'electronics, RF and telecommunications engineers'],
  ['17-2072.01', 'electrical_engineering', 'RFID device engineers: RF electronics'],
  ['17-2061.00', 'electrical_engineering', 'computer hardware engineers'],
  ['17-2199.06', 'electrical_engineering', 'MEMS and semiconductor device engineers'],
  ['17-2199.07', 'electrical_engineering', 'photonics, optoelectronics and laser engineers'],
  ['17-2199.11', 'electrical_engineering', 'solar PV systems and power engineers'],
  // project_management
  ['13-1082.00', 'project_management', 'project managers'],
  ['15-1299.09', 'project_management', 'IT project and program managers'],
];

/**
 * Why an occupation maps to no family: the longest matching code prefix wins. Every occupation
 * not in REVIEWED needs one; the build fails otherwise.
 */
const UNMAPPED: ReadonlyArray<readonly [prefix: string, reason: string]> = [
  ['11-', 'management outside the families'],
  ['11-1011', 'chief executives: no single function'],
  ['11-1011.03', 'sustainability leadership'],
  ['11-1031', 'legislators'],
  ['11-2033', 'fundraising, not marketing'],
  ['11-3012', 'administrative services (records, mail, office support), not business operations'],
  ['11-3013', 'facilities management'],
  ['11-3013.01', 'mostly physical and corporate security, not information security'],
  ['11-3051', 'plant and production management'],
  ['11-3051.01', 'manufacturing and food quality management, not software QA'],
  ['11-9013', 'farming'],
  ['11-903', 'education administration'],
  ['11-9041', 'engineering managers of every discipline (civil, architecture, electrical, mechanical): no single family'],
  ['11-9041.01', 'biofuels product development'],
  ['11-905', 'hospitality management'],
  ['11-907', 'gambling and entertainment management'],
  ['11-908', 'lodging management'],
  ['11-9111', 'healthcare administration; nurse managers are only part of it'],
  ['11-9121', 'science and research management'],
  ['11-9121.01', 'clinical research coordination'],
  ['11-9121.02', 'water resources'],
  ['11-9199.00', 'residual management category'],
  ['11-9199.08', 'retail loss prevention'],
  ['11-9199.09', 'wind energy operations'],
  ['11-9199.10', 'wind energy development'],
  ['11-9199.11', 'brownfield redevelopment'],
  ['13-', 'business specialty outside the families'],
  ['13-1011', 'agents of artists and athletes'],
  ['13-103', 'insurance claims'],
  ['13-1041.01', 'government environmental inspection'],
  ['13-1041.04', 'government property inspection'],
  ['13-1041.06', 'coroners'],
  ['13-1051', 'cost estimating (construction, manufacturing)'],
  ['13-1074', 'farm labor contracting'],
  ['13-1121', 'event planning'],
  ['13-1131', 'fundraising'],
  ['13-1199.05', 'sustainability'],
  ['13-1199.06', 'online merchants running their own shops'],
  ['13-1199.07', 'mostly physical and personnel security; infosec titles are a minority'],
  ['13-202', 'appraisal'],
  ['13-2052', 'personal financial advice: client advisory and sales, not corporate finance'],
  ['13-2053', 'insurance underwriting'],
  ['13-2071', 'consumer credit counselling'],
  ['13-2072', 'lending (loan officers)'],
  ['13-2081', 'government tax examination and collection'],
  ['13-2099.00', 'residual financial category'],
  ['15-', 'computer or mathematical specialty outside the families'],
  ['15-1211.01', 'clinical informatics (nurses, pharmacists, analysts): no single family'],
  ['15-1255.01', 'game design, not product or UX design'],
  ['15-1299.00', 'residual computer category'],
  ['15-1299.01', 'web content and site administration'],
  ['15-1299.02', 'GIS'],
  ['15-1299.03', 'document management'],
  ['15-2011', 'actuaries: a credentialed insurance profession'],
  ['15-2051.02', 'clinical trial data management'],
  ['15-2099', 'residual mathematical category'],
  ['15-2099.01', 'bioinformatics technicians'],
  ['17-1', 'architecture, cartography or surveying'],
  ['17-2', 'engineering discipline without a family'],
  ['17-2021', 'agricultural engineering'],
  ['17-2031', 'biomedical engineering'],
  ['17-2041', 'chemical engineering'],
  ['17-2051', 'civil engineering'],
  ['17-2081', 'environmental engineering'],
  ['17-2111', 'health, safety and fire protection engineering'],
  ['17-2112.01', 'ergonomists and human factors; usability titles are a minority'],
  ['17-2121', 'marine engineering and naval architecture'],
  ['17-2131', 'materials engineering'],
  ['17-2151', 'mining engineering'],
  ['17-2161', 'nuclear engineering'],
  ['17-2171', 'petroleum engineering'],
  ['17-2199.00', 'residual engineering category'],
  ['17-2199.09', 'nanosystems engineering'],
  ['17-2199.10', 'wind energy engineering (siting, turbine design)'],
  ['17-301', 'drafters: drawing work, not engineering'],
  ['17-3012', 'electrical drafters (incl. PCB layout): drafting, not engineering'],
  ['17-302', 'engineering technicians, not engineers'],
  ['17-303', 'surveying and mapping technicians'],
  ['19-1', 'life sciences'],
  ['19-2', 'physical sciences'],
  ['19-3', 'social sciences'],
  ['19-3022', 'survey research (polling, government statistics)'],
  ['19-4', 'science technicians'],
  ['19-4099.01', 'laboratory quality control, not software QA'],
  ['19-5', 'occupational health and safety'],
  ['21-1', 'community and social service'],
  ['21-2', 'clergy and religious work'],
  ['25-', 'teaching, training or library work'],
  ['27-1', 'art and design outside product and visual design'],
  ['27-2', 'entertainment and sports'],
  ['27-3', 'media and communication'],
  ['27-3042', 'technical writing (documentation), not content design'],
  ['27-4', 'media equipment work'],
  ['29-1', 'healthcare practitioners, not nursing'],
  ['29-1051', 'pharmacists'],
  ['29-1071', 'physician assistants: not nurses'],
  ['29-1131', 'veterinarians'],
  ['29-12', 'physicians and surgeons'],
  ['29-129', 'other healthcare practitioners, not nursing'],
  ['29-1292', 'dental hygienists: not nurses'],
  ['29-2', 'health technologists and technicians, not nurses'],
  ['29-2056', 'veterinary technicians'],
  ['29-9', 'other healthcare practitioners'],
  ['29-9099.01', 'direct-entry midwives, not nurse midwives'],
  ['31-', 'healthcare support (aides and assistants), not nurses'],
  ['31-1121', 'home health aides: not nurses'],
  ['31-1131', 'nursing assistants: not nurses'],
  ['33-', 'protective service'],
  ['33-3021.06', 'law-enforcement intelligence, not cyber threat intelligence'],
  ['33-3051', 'police'],
  ['35-', 'food preparation and serving'],
  ['35-1011', 'chefs'],
  ['37-', 'building and grounds work'],
  ['39-', 'personal care and service'],
  ['41-1011', 'retail store supervision'],
  ['41-2', 'retail and counter sales'],
  ['41-3031', 'brokers, traders, bankers and financial advisors: neither B2B sales nor corporate finance'],
  ['41-3041', 'travel agents'],
  ['41-901', 'product demonstration and modelling'],
  ['41-902', 'real estate sales'],
  ['41-9091', 'door-to-door and street vending'],
  ['41-9099', 'residual sales category'],
  ['43-', 'office and administrative support'],
  ['43-1011', 'office supervision across functions'],
  ['43-3011', 'collections calls'],
  ['43-4151', 'order entry'],
  ['43-5032', 'dispatchers'],
  ['43-5071', 'shipping, receiving and stock clerks (warehouse floor)'],
  ['43-9111', 'statistical clerks'],
  ['45-', 'farming, fishing or forestry'],
  ['47-', 'construction or extraction trade'],
  ['47-2111', 'electricians: a trade, not electrical engineering'],
  ['47-2152', 'plumbers and pipefitters'],
  ['49-', 'installation, maintenance or repair trade'],
  ['49-9021', 'HVAC mechanics: a trade, not HVAC engineering'],
  ['51-', 'production work'],
  ['51-9061', 'production inspectors, not QA engineers'],
  ['51-9162', 'CNC programming (machining), not software'],
  ['53-', 'transportation or material moving'],
  ['53-3', 'drivers'],
  ['55-', 'military'],
];

/**
 * skill-links.tsv: a family skill (role-families.json) → the O*NET Technology Skills examples
 * that are that product (lower case, exact; a trailing `*` means "starts with"). Only products and
 * languages: concept skills ("Negotiation", "Data Visualization") and O*NET's category entries
 * ("Data visualization software") are not linked.
 */
const SKILL_PRODUCTS: Readonly<Record<string, readonly string[]>> = {
  TypeScript: ['typescript'],
  JavaScript: ['javascript'],
  Python: ['python'],
  Java: ['oracle java'],
  Go: ['go'],
  'C#': ['c#', 'microsoft visual c# .net'],
  'C++': ['c++'],
  Rust: ['rust programming language'],
  Kotlin: ['kotlin'],
  Swift: ['swift'],
  'Node.js': ['node.js'],
  React: ['react'],
  Angular: ['google angular'],
  'Vue.js': ['vue.js'],
  'Spring Boot': ['spring boot'],
  '.NET': ['microsoft .net framework'],
  Django: ['django'],
  GraphQL: ['graphql'],
  PostgreSQL: ['postgresql'],
  MySQL: ['mysql'],
  MongoDB: ['mongodb'],
  Redis: ['redis'],
  Docker: ['docker'],
  Kubernetes: ['kubernetes'],
  AWS: ['amazon web services aws software'],
  Git: ['git'],
  R: ['r'],
  SQL: ['structured query language sql', 'structure query language sql'],
  pandas: ['pandas'],
  NumPy: ['numpy'],
  'scikit-learn': ['scikit-learn'],
  PyTorch: ['pytorch'],
  TensorFlow: ['tensorflow'],
  Tableau: ['tableau'],
  'Power BI': ['microsoft power bi'],
  Jupyter: ['jupyter notebook', 'jupyter software'],
  'Apache Spark': ['apache spark'],
  Looker: ['google looker analytics'],
  XGBoost: ['xgboost'],
  MLflow: ['mlflow'],
  Scala: ['scala'],
  'Apache Kafka': ['apache kafka'],
  'Apache Airflow': ['apache airflow'],
  BigQuery: ['bigquery', 'google bigquery'],
  'Amazon Redshift': ['amazon redshift'],
  Hadoop: ['apache hadoop'],
  Hive: ['apache hive'],
  'Google Cloud': ['google cloud software'],
  Azure: ['microsoft azure software'],
  Terraform: ['ibm terraform', 'hashicorp terraform'],
  Jira: ['atlassian jira'],
  Confluence: ['atlassian confluence'],
  'Microsoft Project': ['microsoft project'],
  Smartsheet: ['smartsheet'],
  Asana: ['asana'],
  Figma: ['figma'],
  'Adobe XD': ['adobe xd'],
  'Adobe Photoshop': ['adobe photoshop'],
  'Adobe Illustrator': ['adobe illustrator'],
  'Adobe After Effects': ['adobe after effects'],
  InVision: ['invision software'],
  HTML: ['hypertext markup language html'],
  CSS: ['cascading style sheets css'],
  Linux: ['linux', 'red hat enterprise linux'],
  Bash: ['bash'],
  Ansible: ['ansible software', 'red hat ansible engine'],
  Jenkins: ['jenkins ci'],
  Prometheus: ['prometheus'],
  Grafana: ['grafana', 'grafana labs grafana cloud'],
  Puppet: ['puppet'],
  Splunk: ['splunk enterprise'],
  'Burp Suite': ['portswigger burp suite'],
  Wireshark: ['wireshark'],
  Metasploit: ['metasploit'],
  'Kali Linux': ['kali linux'],
  Selenium: ['selenium'],
  JUnit: ['junit'],
  TestNG: ['testng'],
  Postman: ['postman'],
  JMeter: ['apache jmeter'],
  Salesforce: ['salesforce software', 'salesforce.com salesforce crm'],
  HubSpot: ['hubspot software'],
  'Google Ads': ['google ads'],
  'Google Analytics': ['google analytics'],
  Marketo: ['marketo marketing automation', 'adobe marketo engage'],
  WordPress: ['wordpress'],
  ServiceNow: ['servicenow'],
  Excel: ['microsoft excel'],
  'Google Sheets': ['google sheets'],
  SAP: [
    'sap software',
    'sap erp',
    'sap erp financials',
    'sap erp operations',
    'sap erp human capital management',
    'sap americas mysap erp human capital management',
    'sap business one',
    'sap scm',
    'sap apo',
  ],
  'Oracle Financials': ['oracle e-business suite financials'],
  'Oracle SCM': ['oracle e-business suite supply chain management'],
  Hyperion: ['oracle hyperion*', 'hyperion*'],
  QuickBooks: ['intuit quickbooks'],
  NetSuite: ['netsuite erp', 'oracle netsuite', 'netsuite neterp'],
  Workday: ['workday software'],
  ADP: ['adp *'],
  Westlaw: ['thomson reuters westlaw', 'thomson reuters westlaw edge'],
  LexisNexis: ['lexisnexis', 'lexisnexis lexis advance', "lexisnexis shepard's citations service"],
  'E-Discovery': ['relativity e-discovery'],
  'Epic Systems': ['epic systems', 'epic systems software', 'epiccare*'],
  Cerner: ['cerner *'],
  SolidWorks: ['dassault systemes solidworks'],
  AutoCAD: ['autodesk autocad', 'autodesk autocad lt', 'autodesk autocad mechanical'],
  'AutoCAD Electrical': ['autodesk autocad electrical'],
  CATIA: ['dassault systemes catia', 'ibm catia'],
  'Siemens NX': ['siemens nx'],
  Creo: ['ptc creo*'],
  ANSYS: ['ansys*'],
  MATLAB: ['the mathworks matlab'],
  Simulink: ['mathworks simulink', 'the mathworks simulink'],
  LabVIEW: ['national instruments labview'],
  'Altium Designer': ['altium designer'],
  Cadence: ['cadence *'],
  OrCAD: ['orcad capture', 'cadence orcad software', 'cadence orcad pspice'],
  Verilog: ['verilog'],
  VHDL: [
    'very high speed integrated circuit vhsic hardware description language vhdl',
    'very high-speed integrated circuit vhsic hardware description language vhdl',
  ],
  SPICE: [
    'simulation program with integrated circuit emphasis spice',
    'cadence pspice',
    'cadence orcad pspice',
    'tanner eda t-spice',
    'beige bag software b2 spice',
  ],
};

/**
 * OEWS counts SOC codes; O*NET splits some into a .00 occupation and specialties that OEWS does not
 * count. Each specialty gets this share of its SOC code's figure (at most half for all of them together).
 */
const SPECIALTY_SHARE = 0.1;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

interface Table {
  name: string;
  file: string;
  sha256: string;
  rows: Record<string, string>[];
}

function usage(message: string): never {
  console.error(`${message}\nUsage: node --import tsx tools/reference/build-occupations.ts --onet <dir> --oews <national_M2024_dl.tsv> [--out <dir>]`);
  process.exit(2);
}

function parseArgs(argv: string[]): { onet: string; oews: string; out: string; onetRelease?: string; oewsRelease?: string } {
  const opts: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) usage(`Unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) opts[arg.slice(2, eq)] = arg.slice(eq + 1);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) usage(`Missing value for ${arg}`);
      opts[arg.slice(2)] = value;
      i++;
    }
  }
  for (const key of Object.keys(opts)) if (!['onet', 'oews', 'out', 'onet-release', 'oews-release'].includes(key)) usage(`Unknown option --${key}`);
  if (!opts.onet || !opts.oews) usage('--onet and --oews are required.');
  return {
    onet: path.resolve(opts.onet),
    oews: path.resolve(opts.oews),
    out: path.resolve(opts.out ?? path.join(ROOT, 'src/reference/data/occupations')),
    onetRelease: opts['onet-release'],
    oewsRelease: opts['oews-release'],
  };
}

/** A tab-separated file with a header row (the O*NET text edition, or the Excel edition saved as TSV). */
function readTsv(file: string, name: string, required: readonly string[]): Table {
  const bytes = fs.readFileSync(file);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const header = lines[0].split('\t').map((h) => h.trim());
  const lower = header.map((h) => h.toLowerCase());
  for (const column of required) if (!lower.includes(column.toLowerCase())) throw new Error(`${file}: no column "${column}" (has: ${header.join(', ')})`);
  const rows: Record<string, string>[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cells = lines[i].split('\t');
    const row: Record<string, string> = {};
    // Keyed by the required spelling, matched case-insensitively (OEWS headers vary in case between years).
    for (const column of required) row[column] = (cells[lower.indexOf(column.toLowerCase())] ?? '').trim();
    rows.push(row);
  }
  return { name, file: path.basename(file), sha256: crypto.createHash('sha256').update(bytes).digest('hex'), rows };
}

function readOnet(dir: string, name: string, required: readonly string[]): Table {
  for (const ext of ['.tsv', '.txt']) {
    const file = path.join(dir, name + ext);
    if (fs.existsSync(file)) return readTsv(file, name, required);
  }
  throw new Error(`${dir}: no "${name}.tsv" or "${name}.txt"`);
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Code-point order, so the output does not depend on the machine's locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
function cmpText(a: string, b: string): number {
  return cmp(a.toLowerCase(), b.toLowerCase()) || cmp(a, b);
}
function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
function tsvCell(s: string): string {
  if (/[\t\r\n]/.test(s)) throw new Error(`Tab or newline in a TSV cell: ${JSON.stringify(s)}`);
  return s;
}
function writeTsv(file: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  fs.writeFileSync(file, [header, ...rows].map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n');
}

/** The first sentence of an O*NET description ("e.g.," and "U.S." do not end one). */
function firstSentence(description: string): string {
  const text = clean(description);
  const re = /[.!?](?=\s+[A-Z])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(0, m.index + 1);
    if (/(?:\b[A-Za-z]\.){2,}$|\b(?:e\.g|i\.e|etc|vs|No|St|Dr|Inc)\.$/.test(before)) continue;
    return before;
  }
  return text;
}

/** "CEO (Chief Executive Officer)" and "Accountant (CPA)" are two spellings; "Analyst (Cyber)" carries a qualifier. */
function isSpelling(main: string, inParens: string): boolean {
  if (inParens.replace(/[^A-Za-z0-9]/g, '').length < 2) return false;
  if (inParens.includes(' ')) return true;
  if (!main.includes(' ')) return true;
  return (inParens.match(/[A-Z]/g) ?? []).length >= 2;
}

/** The spellings of one O*NET title (docs/reference/occupations.md, "titles.tsv"). */
function spellings(raw: string): string[] {
  const title = clean(raw);
  if (!/[()]/.test(title)) return title ? [title] : [];
  const trailing = /^([^()]*\S)\s*\(([^()]+)\)$/.exec(title);
  if (trailing) {
    const main = clean(trailing[1]);
    const inParens = clean(trailing[2]);
    return [main, isSpelling(main, inParens) ? inParens : title];
  }
  // Parentheses inside the title ("General Educational Development (GED) Examiner") or nested.
  let removed = title;
  for (let prev = ''; prev !== removed;) {
    prev = removed;
    removed = removed.replace(/\s*\([^()]*\)\s*/g, ' ');
  }
  const out = [clean(removed)];
  let substituted = false;
  const abbreviated = title.replace(/((?:[^\s()/]+\s+)+)\(([A-Z][A-Za-z0-9&]*)\)/g, (whole: string, words: string, abbr: string) => {
    const letters = abbr.replace(/[^A-Za-z]/g, '');
    const list = words.trim().split(/\s+/);
    if (letters.length < 2 || list.length < letters.length) return whole;
    const taken = list.slice(list.length - letters.length);
    if (
      taken
        .map((w) => w[0])
        .join('')
        .toLowerCase() !== letters.toLowerCase()
    )
      return whole;
    substituted = true;
    return (
      list
        .slice(0, list.length - letters.length)
        .concat(abbr)
        .join(' ') + ' '
    );
  });
  const abbrev = clean(abbreviated);
  if (substituted && !/[()]/.test(abbrev)) out.push(abbrev);
  else out.push(title);
  return out;
}

/** Split `total` in proportion to `weights` (integers summing to `total`; largest remainder, then key order). */
function apportion(total: number, weights: ReadonlyArray<readonly [key: string, weight: number]>): Map<string, number> {
  const sum = weights.reduce((s, [, w]) => s + w, 0);
  const parts = weights.map(([key, w]) => {
    const exact = (total * w) / sum;
    return { key, floor: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = total - parts.reduce((s, p) => s + p.floor, 0);
  const order = [...parts].sort((a, b) => b.rest - a.rest || cmp(a.key, b.key));
  for (const p of order) {
    if (left <= 0) break;
    p.floor++;
    left--;
  }
  return new Map(parts.map((p) => [p.key, p.floor]));
}

// ---------------------------------------------------------------------------------------------
// JSON in Prettier's layout (the repository formats JSON with Prettier, printWidth 160)
// ---------------------------------------------------------------------------------------------

const PRINT_WIDTH = 160;

function toJson(value: unknown, indent = '', prefix = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const scalar = value.every((v) => v === null || typeof v !== 'object');
    if (scalar) {
      const inline = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
      if (indent.length + prefix.length + inline.length + 1 <= PRINT_WIDTH) return inline;
    }
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + toJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${toJson(v, inner, `${JSON.stringify(k)}: `)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Build
// ---------------------------------------------------------------------------------------------

/** An occupation as src/reference/occupations.ts reads it, with the OEWS estimate its employment came from. */
interface Occupation extends ServedOccupation {
  oews: { code: string; title: string; tot_emp: number; shared_by: number } | null;
}

interface RoleFamily {
  id: string;
  label: string;
  skills: string[];
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const C = 'O*NET-SOC Code';

  // --- O*NET ---
  const occData = readOnet(args.onet, 'Occupation Data', [C, 'Title', 'Description']);
  const altTitles = readOnet(args.onet, 'Alternate Titles', [C, 'Alternate Title', 'Short Title']);
  const reported = readOnet(args.onet, 'Sample of Reported Titles', [C, 'Reported Job Title']);
  const skillsT = readOnet(args.onet, 'Skills', [C, 'Element ID', 'Element Name', 'Scale ID', 'Data Value']);
  const techT = readOnet(args.onet, 'Technology Skills', [C, 'Example', 'Hot Technology', 'In Demand']);
  const zonesT = readOnet(args.onet, 'Job Zones', [C, 'Job Zone']);
  const oewsT = readTsv(args.oews, 'OEWS national', ['OCC_CODE', 'OCC_TITLE', 'O_GROUP', 'TOT_EMP']);
  const onetTables = [occData, altTitles, reported, skillsT, techT, zonesT];

  let release = args.onetRelease ?? 'O*NET 29.3 Database (May 2025 release)';
  const readMe = path.join(args.onet, 'Read Me.txt');
  if (!args.onetRelease && fs.existsSync(readMe)) {
    const m = /O\*NET (\d+\.\d+) Database\s*\n\s*(\w+ \d{4}) Release/.exec(fs.readFileSync(readMe, 'utf8'));
    if (m) release = `O*NET ${m[1]} Database (${m[2]} release)`;
  }
  const database = release.replace(/\s*\(.*\)$/, '');
  const oewsYear = /_M(\d{4})_/.exec(path.basename(args.oews))?.[1];
  const oewsRelease = args.oewsRelease ?? (oewsYear ? `May ${oewsYear}` : 'May 2024');

  // --- Families ---
  const families = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/reference/data/role-families.json'), 'utf8')) as RoleFamily[];
  const familyIds = families.map((f) => f.id);
  const titleOf = new Map(occData.rows.map((r) => [r[C], clean(r.Title)]));
  const familyOf = new Map<string, { family: string; reason: string }>();
  for (const [code, family, reason] of REVIEWED) {
    if (!titleOf.has(code)) throw new Error(`REVIEWED: ${code} is not an occupation of ${occData.file}`);
    if (!familyIds.includes(family)) throw new Error(`REVIEWED: ${code} → unknown family ${family}`);
    if (familyOf.has(code)) throw new Error(`REVIEWED: ${code} listed twice`);
    familyOf.set(code, { family, reason });
  }
  const unmappedReason = (code: string): string => {
    let best: readonly [string, string] | undefined;
    for (const entry of UNMAPPED) if (code.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
    if (!best) throw new Error(`No family and no reason for ${code} ${titleOf.get(code)}: add it to REVIEWED or UNMAPPED`);
    return best[1];
  };

  // --- Job zones, skills, technology ---
  const jobZone = new Map<string, number>();
  for (const r of zonesT.rows) jobZone.set(r[C], Number(r['Job Zone']));

  const skillScores = new Map<string, Map<string, { id: string; name: string; im: number; lv: number }>>();
  for (const r of skillsT.rows) {
    if (r['Scale ID'] !== 'IM' && r['Scale ID'] !== 'LV') continue;
    let byElement = skillScores.get(r[C]);
    if (!byElement) skillScores.set(r[C], (byElement = new Map()));
    let e = byElement.get(r['Element ID']);
    if (!e) byElement.set(r['Element ID'], (e = { id: r['Element ID'], name: clean(r['Element Name']), im: -1, lv: -1 }));
    if (r['Scale ID'] === 'IM') e.im = Number(r['Data Value']);
    else e.lv = Number(r['Data Value']);
  }
  const topSkills = (code: string): string[] =>
    [...(skillScores.get(code)?.values() ?? [])]
      .filter((e) => e.im >= 0)
      .sort((a, b) => b.im - a.im || b.lv - a.lv || cmp(a.id, b.id))
      .slice(0, 8)
      .map((e) => e.name);

  const tech = new Map<string, Map<string, { name: string; hot: boolean; demand: boolean }>>();
  for (const r of techT.rows) {
    const name = clean(r.Example);
    if (!name) continue;
    let byName = tech.get(r[C]);
    if (!byName) tech.set(r[C], (byName = new Map()));
    const key = name.toLowerCase();
    const prev = byName.get(key);
    const hot = r['Hot Technology'] === 'Y';
    const demand = r['In Demand'] === 'Y';
    if (prev) {
      prev.hot ||= hot;
      prev.demand ||= demand;
    } else byName.set(key, { name, hot, demand });
  }
  const techRank = (t: { hot: boolean; demand: boolean }): number => (t.hot ? 0 : 2) + (t.demand ? 0 : 1);
  const topTech = (code: string): string[] =>
    [...(tech.get(code)?.values() ?? [])]
      .sort((a, b) => techRank(a) - techRank(b) || cmpText(a.name, b.name))
      .slice(0, 15)
      .map((t) => t.name);

  // --- Employment (OEWS) ---
  const oewsRows = oewsT.rows.filter((r) => /^\d\d-\d{4}$/.test(r.OCC_CODE));
  const detailed = new Map<string, Record<string, string>>();
  const broad = new Map<string, Record<string, string>>();
  let allOccupations: number | null = null;
  for (const r of oewsT.rows) if (r.OCC_CODE === '00-0000') allOccupations = parseEmp(r.TOT_EMP);
  for (const r of oewsRows) {
    const into = r.O_GROUP === 'detailed' ? detailed : r.O_GROUP === 'broad' ? broad : undefined;
    if (!into) continue;
    // One row per code and group: anything else is not the national cross-industry file.
    if (into.has(r.OCC_CODE)) throw new Error(`${oewsT.file}: ${r.OCC_CODE} (${r.O_GROUP}) twice; expected the national, cross-industry file`);
    into.set(r.OCC_CODE, r);
  }
  const codes = occData.rows.map((r) => r[C]).sort(cmp);
  const socs = [...new Set(codes.map((c) => c.slice(0, 7)))].sort(cmp);
  const socSet = new Set(socs);
  /** OEWS cell (code) → the SOC codes it covers. */
  const cellOf = new Map<string, { code: string; title: string; group: string; emp: number | null }>();
  const cellSocs = new Map<string, string[]>();
  for (const soc of socs) {
    let cell: { code: string; title: string; group: string; emp: number | null } | undefined;
    const own = detailed.get(soc);
    if (own) cell = { code: soc, title: own.OCC_TITLE, group: 'detailed', emp: parseEmp(own.TOT_EMP) };
    else {
      // An OEWS aggregate in the same broad group that is not itself an O*NET SOC code
      // (21-1018 for 21-1011 and 21-1014; 13-1020 published as detailed for 13-1021…13-1023).
      const stem = soc.slice(0, 6);
      const aggregates = [...detailed.keys()].filter((k) => k.startsWith(stem) && !socSet.has(k)).sort(cmp);
      if (aggregates.length > 1) throw new Error(`OEWS: several aggregates could hold ${soc}: ${aggregates.join(', ')}`);
      if (aggregates.length === 1) {
        const agg = detailed.get(aggregates[0])!;
        cell = { code: aggregates[0], title: agg.OCC_TITLE, group: 'aggregate', emp: parseEmp(agg.TOT_EMP) };
      } else {
        const b = broad.get(stem + '0');
        if (b) {
          // Only the broad group: what its published detailed rows leave over.
          const rest = parseEmp(b.TOT_EMP);
          const published = [...detailed.entries()].filter(([k]) => k.startsWith(stem)).map(([, r]) => parseEmp(r.TOT_EMP));
          const emp = rest === null || published.some((p) => p === null) ? null : rest - published.reduce<number>((s, p) => s + (p ?? 0), 0);
          cell = { code: stem + '0', title: b.OCC_TITLE, group: 'broad remainder', emp: emp !== null && emp > 0 ? emp : null };
        }
      }
    }
    if (!cell) continue;
    cellOf.set(soc, cell);
    cellSocs.set(cell.code, [...(cellSocs.get(cell.code) ?? []), soc]);
  }
  const employment = new Map<string, number>();
  const sharedBy = new Map<string, number>();
  for (const covered of cellSocs.values()) {
    const cell = cellOf.get(covered[0])!;
    const members = codes.filter((c) => covered.includes(c.slice(0, 7)));
    for (const m of members) sharedBy.set(m, members.length);
    if (cell.emp === null) continue;
    // Evenly over the SOC codes of the cell. Within a SOC code, each O*NET specialty (.01, .02…)
    // gets SPECIALTY_SHARE of the figure, or less so that together they get at most half; the .00
    // occupation gets the rest (docs/reference/occupations.md, "Employment").
    const weights: [string, number][] = [];
    for (const soc of covered) {
      const inSoc = codes.filter((c) => c.slice(0, 7) === soc);
      const base = soc + '.00';
      const specialties = inSoc.length - 1;
      const share = Math.min(SPECIALTY_SHARE, 1 / (2 * specialties));
      for (const c of inSoc) {
        const within = inSoc.length === 1 ? 1 : !inSoc.includes(base) ? 1 / inSoc.length : c === base ? 1 - specialties * share : share;
        weights.push([c, within / covered.length]);
      }
    }
    for (const [c, n] of apportion(cell.emp, weights)) employment.set(c, n);
  }

  // --- Titles ---
  const SOURCE_RANK: Record<string, number> = { reported: 0, alternate: 1, short: 2 };
  const titles = new Map<string, { title: string; code: string; source: string }>();
  const addTitle = (code: string, raw: string, source: string): void => {
    for (const t of spellings(raw)) {
      const key = `${code}\t${t.toLowerCase()}`;
      const prev = titles.get(key);
      if (!prev || SOURCE_RANK[source] < SOURCE_RANK[prev.source]) titles.set(key, { title: t, code, source });
    }
  };
  for (const r of altTitles.rows) {
    addTitle(r[C], r['Alternate Title'], 'alternate');
    const short = clean(r['Short Title']);
    // O*NET sometimes repeats a qualifier as the short title ("Cybersecurity Analyst (Cyber)", short "Cyber"): not a title.
    const qualifier = /\(([^()]+)\)$/.exec(clean(r['Alternate Title']));
    const isQualifier = !!qualifier && qualifier[1] === short && spellings(r['Alternate Title']).includes(clean(r['Alternate Title']));
    if (short && short.toLowerCase() !== 'n/a' && !isQualifier) addTitle(r[C], short, 'short');
  }
  for (const r of reported.rows) addTitle(r[C], r['Reported Job Title'], 'reported');
  for (const t of titles.values()) if (!titleOf.has(t.code)) throw new Error(`Title for unknown occupation ${t.code}: ${t.title}`);
  const titleRows = [...titles.values()].sort((a, b) => cmp(a.code, b.code) || cmpText(a.title, b.title));

  // --- Occupations ---
  const descriptionOf = new Map(occData.rows.map((r) => [r[C], r.Description]));
  const occupations: Occupation[] = codes.map((code) => {
    const cell = cellOf.get(code.slice(0, 7));
    const emp = employment.get(code) ?? null;
    return {
      code,
      title: titleOf.get(code)!,
      description: firstSentence(descriptionOf.get(code)!),
      family: familyOf.get(code)?.family ?? null,
      job_zone: jobZone.get(code) ?? null,
      employment: emp,
      oews: cell && cell.emp !== null ? { code: cell.code, title: cell.title, tot_emp: cell.emp, shared_by: sharedBy.get(code)! } : null,
      skills: topSkills(code),
      technology: topTech(code),
    };
  });

  // --- Skill links ---
  const linkRows: string[][] = [];
  for (const o of occupations) {
    if (!o.family) continue;
    const fam = families.find((f) => f.id === o.family)!;
    const examples = [...(tech.get(o.code)?.values() ?? [])];
    for (const skill of [...fam.skills].sort(cmpText)) {
      const patterns = SKILL_PRODUCTS[skill];
      if (!patterns) continue;
      const hits = examples
        .filter((e) => patterns.some((p) => (p.endsWith('*') ? e.name.toLowerCase().startsWith(p.slice(0, -1)) : e.name.toLowerCase() === p)))
        .sort((a, b) => cmpText(a.name, b.name));
      if (hits.length === 0) continue;
      linkRows.push([o.code, o.family, skill, hits.map((h) => h.name).join('; '), hits.some((h) => h.hot) ? 'Y' : 'N', hits.some((h) => h.demand) ? 'Y' : 'N']);
    }
  }
  for (const skill of Object.keys(SKILL_PRODUCTS))
    if (!families.some((f) => f.skills.includes(skill))) throw new Error(`SKILL_PRODUCTS: "${skill}" is no family's skill in role-families.json`);

  // --- Write ---
  fs.mkdirSync(args.out, { recursive: true });
  const source = {
    release,
    files: onetTables.map((t) => ({ name: t.name, file: t.file, sha256: t.sha256, rows: t.rows.length })),
    licence:
      'Creative Commons Attribution 4.0 International (CC BY 4.0), https://creativecommons.org/licenses/by/4.0/; see https://www.onetcenter.org/license_db.html',
    attribution:
      `This file includes information from the ${database} by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA). ` +
      'Used under the CC BY 4.0 license. O*NET® is a trademark of USDOL/ETA. The candidate-sourcing project has modified all or some of this information ' +
      '(descriptions shortened to their first sentence; skills and technologies selected and ordered; titles split and de-duplicated; occupations mapped to ' +
      'role families; employment estimates from BLS OEWS added; see docs/reference/occupations.md). USDOL/ETA has not approved, endorsed, or tested these modifications.',
    employment: {
      release: `BLS Occupational Employment and Wage Statistics (OEWS), ${oewsRelease}, national, cross-industry (TOT_EMP)`,
      file: oewsT.file,
      sha256: oewsT.sha256,
      licence: 'U.S. Bureau of Labor Statistics data: a work of the U.S. Government, public domain in the United States (17 U.S.C. 105)',
      rule:
        'TOT_EMP of the SOC code (first 7 characters), or of the OEWS aggregate that holds it; an OEWS figure covering several SOC codes is split evenly between them; ' +
        'within a SOC code each O*NET specialty (.01, .02…) gets 10% (all together at most 50%) and the .00 occupation the rest. See docs/reference/occupations.md.',
    },
  };
  fs.writeFileSync(path.join(args.out, 'occupations.json'), toJson({ source, occupations }) + '\n');
  writeTsv(
    path.join(args.out, 'titles.tsv'),
    ['title', 'code', 'source'],
    titleRows.map((t) => [t.title, t.code, t.source]),
  );
  writeTsv(
    path.join(args.out, 'families.tsv'),
    ['code', 'title', 'family', 'reason'],
    codes.map((code) => {
      const f = familyOf.get(code);
      return [code, titleOf.get(code)!, f?.family ?? '', f?.reason ?? unmappedReason(code)];
    }),
  );
  writeTsv(path.join(args.out, 'skill-links.tsv'), ['code', 'family', 'skill', 'onet_examples', 'hot', 'in_demand'], linkRows);

  // --- Self-check ---
  const fmt = (n: number): string => n.toLocaleString('en-US');
  const size = (f: string): string => `${fmt(fs.statSync(path.join(args.out, f)).size)} bytes`;
  console.log(`Wrote ${args.out}:`);
  console.log(`  occupations.json  ${size('occupations.json')}  ${occupations.length} occupations`);
  console.log(`  titles.tsv        ${size('titles.tsv')}  ${titleRows.length} rows`);
  console.log(`  families.tsv      ${size('families.tsv')}  ${codes.length} rows`);
  console.log(`  skill-links.tsv   ${size('skill-links.tsv')}  ${linkRows.length} rows`);
  console.log('\nSelf-check');
  const count = (pred: (o: Occupation) => boolean): number => occupations.filter(pred).length;
  console.log(
    `  occupations: ${occupations.length}; with job zone ${count((o) => o.job_zone !== null)}, skills ${count((o) => o.skills.length > 0)}, technology ${count((o) => o.technology.length > 0)}, employment ${count((o) => o.employment !== null)}`,
  );
  const bySource = new Map<string, number>();
  for (const t of titleRows) bySource.set(t.source, (bySource.get(t.source) ?? 0) + 1);
  console.log(`  titles: ${titleRows.length} (${[...bySource].map(([s, n]) => `${s} ${n}`).join(', ')})`);
  const withTitles = new Set(titleRows.map((t) => t.code));
  const noTitles = occupations.filter((o) => !withTitles.has(o.code));
  console.log(`  occupations with no titles: ${noTitles.length}${noTitles.map((o) => `\n    ${o.code} ${o.title}`).join('')}`);
  const total = occupations.reduce((s, o) => s + (o.employment ?? 0), 0);
  console.log(
    `  employment covered: ${fmt(total)}${allOccupations ? ` of ${fmt(allOccupations)} in OEWS all occupations (${((100 * total) / allOccupations).toFixed(2)}%)` : ''}`,
  );
  const nulls = occupations.filter((o) => o.employment === null);
  console.log(`  no OEWS employment (${nulls.length}): ${nulls.map((o) => `${o.code} ${o.title}`).join('; ')}`);
  const shared = [...cellSocs].filter(([, s]) => s.length > 1);
  console.log(`  OEWS figures split over several SOC codes (${shared.length}): ${shared.map(([k, s]) => `${k} → ${s.join(', ')}`).join('; ')}`);
  console.log('  per family (occupations, employment):');
  for (const id of familyIds) {
    const members = occupations.filter((o) => o.family === id);
    console.log(`    ${id.padEnd(24)} ${String(members.length).padStart(3)}  ${fmt(members.reduce((s, o) => s + (o.employment ?? 0), 0)).padStart(11)}`);
  }
  const mapped = occupations.filter((o) => o.family);
  console.log(`    ${'(mapped)'.padEnd(24)} ${String(mapped.length).padStart(3)}  ${fmt(mapped.reduce((s, o) => s + (o.employment ?? 0), 0)).padStart(11)}`);
  console.log(`    ${'(none)'.padEnd(24)} ${String(occupations.length - mapped.length).padStart(3)}`);
  console.log('  20 largest occupations by employment:');
  for (const o of [...occupations].sort((a, b) => (b.employment ?? -1) - (a.employment ?? -1) || cmp(a.code, b.code)).slice(0, 20))
    console.log(`    ${o.code} ${fmt(o.employment ?? 0).padStart(9)}  ${(o.family ?? '-').padEnd(22)} ${o.title}`);

  // Against the earlier mapping (onet-titles.json `occupations`), when it is there.
  const oldFile = path.join(ROOT, 'src/reference/data/onet-titles.json');
  if (fs.existsSync(oldFile)) {
    const old = (JSON.parse(fs.readFileSync(oldFile, 'utf8')) as { occupations: Record<string, { family: string }> }).occupations;
    const changed = Object.entries(old).filter(([code, v]) => familyOf.get(code)?.family !== v.family);
    const added = mapped.filter((o) => !(o.code in old));
    console.log(
      `  onet-titles.json: ${Object.keys(old).length} mapped before; changed or dropped: ${changed.length ? changed.map(([c, v]) => `${c} ${v.family} → ${familyOf.get(c)?.family ?? 'none'}`).join('; ') : 'none'}`,
    );
    console.log(`  newly mapped (${added.length}):`);
    for (const o of added) console.log(`    ${o.code} ${o.family!.padEnd(22)} ${o.title}`);
  }
}

function parseEmp(value: string): number | null {
  const v = value.replace(/,/g, '').trim();
  return /^\d+$/.test(v) ? Number(v) : null;
}

main();
